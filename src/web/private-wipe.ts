/**
 * Every store of the web app a private conversation writes to, and how each forgets one person's
 * on `/private wipe`. The messages themselves live in private.db, which the core wipes; these are
 * the web app's own, side by side under DATA_DIR/web/: the conversations' titles and branches
 * (conversation-store.ts), what each turn showed — tool trace, a cut reply's words
 * (trace-store.ts) — and the images sent (image-store.ts). A new store of a private conversation
 * goes into this list; the wipe test (test/integration/web-private-wipe.test.ts) is made from it.
 */
import type { ConversationStore } from './conversation-store.js';
import type { ImageStore } from './image-store.js';
import { PRIVATE_PROJECT } from './places.js';
import type { TraceStore } from './trace-store.js';
import { TurnHub } from './turns.js';

export interface PrivateConversationStores {
  conversations: ConversationStore;
  turns: TraceStore;
  images: ImageStore;
}

/** Each store's folder under DATA_DIR/web/. */
export const PRIVATE_CONVERSATION_FOLDERS: Readonly<Record<keyof PrivateConversationStores, string>> = { conversations: 'conversations', turns: 'turns', images: 'images' };

/** The key a person's private conversation has in the stores keyed by place (WebConversations.key). */
export const privatePlaceKey = (userId: string) => `${PRIVATE_PROJECT}\u0000${userId}`;

/** Forgets one person's private conversations in every store of the list. */
export function wipePrivateConversations(stores: PrivateConversationStores, userId: string): void {
  const wipes: Record<keyof PrivateConversationStores, () => void> = {
    conversations: () => stores.conversations.wipe(privatePlaceKey(userId)),
    turns: () => stores.turns.wipe(TurnHub.owner(userId, PRIVATE_PROJECT)),
    images: () => stores.images.wipe(privatePlaceKey(userId)),
  };
  for (const wipe of Object.values(wipes)) wipe();
}
