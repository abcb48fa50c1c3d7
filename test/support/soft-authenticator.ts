/**
 * A software passkey authenticator for the members API test: makes an ES256 key pair per
 * passkey and answers WebAuthn's create and get as a phone would (attestation "none", user
 * present and verified), so the server's real @simplewebauthn checks run without a browser.
 * The browser test uses Chromium's own virtual authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** The options the server sends (the parts an authenticator reads). */
export interface CreateOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
export interface GetOptions {
  challenge: string;
  rpId?: string;
}

interface Held {
  id: Buffer;
  key: KeyObject;
  rpId: string;
  user: string;
  counter: number;
}

const b64 = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export class SoftAuthenticator {
  readonly held: Held[] = [];

  constructor(private readonly origin: string) {}

  /** navigator.credentials.create: a new resident passkey for the options' user. */
  create(options: CreateOptions): unknown {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const held: Held = { id, key: privateKey, rpId, user: options.user.id, counter: 0 };
    this.held.push(held);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    // rpIdHash, flags (user present, verified, attested credential data), counter, AAGUID, the credential
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x45]), u32(0), Buffer.alloc(16), idLength, id, Buffer.from(cose)]);
    const attestation = new Map<string, string | Map<string, string> | Uint8Array>();
    attestation.set('fmt', 'none');
    attestation.set('attStmt', new Map<string, string>());
    attestation.set('authData', authData);
    const clientData = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: this.origin, crossOrigin: false });
    return {
      id: b64(id),
      rawId: b64(id),
      type: 'public-key',
      response: { clientDataJSON: b64(clientData), attestationObject: b64(isoCBOR.encode(attestation)), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get with a discoverable passkey: the first one held for the site (or `pick`). */
  get(options: GetOptions, pick?: Held): unknown {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const held = pick ?? this.held.find((h) => h.rpId === rpId);
    if (!held) throw new Error('no passkey for this site');
    held.counter += 1;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), u32(held.counter)]);
    const clientData = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: this.origin, crossOrigin: false });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), held.key);
    return {
      id: b64(held.id),
      rawId: b64(held.id),
      type: 'public-key',
      response: { clientDataJSON: b64(clientData), authenticatorData: b64(authData), signature: b64(signature), userHandle: held.user },
      clientExtensionResults: {},
    };
  }
}
