/** The privacy slice of the assistant (PrivacyApi): which way asking in the moment goes, and each person's ledger. */
import type { PrivacyApi } from '../assistant-api.js';
import type { ConsentGrant, ConsentLedger, ConsentMode } from './consent.js';

export class ConsentDesk implements PrivacyApi {
  constructor(
    private readonly mode: ConsentMode,
    private readonly ledger: ConsentLedger,
    private readonly now: () => Date,
  ) {}

  consentMode(): ConsentMode {
    return this.mode;
  }

  consents(userId: string): Promise<ConsentGrant[]> {
    return this.ledger.list(userId);
  }

  revokeConsent(userId: string, grantId: string): Promise<boolean> {
    return this.ledger.revoke(userId, grantId.trim(), this.now().toISOString());
  }
}
