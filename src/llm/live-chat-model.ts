/**
 * The chat lane behind its port, swappable while Charlie runs: the owner changes the model server
 * in the web app's Settings and the next turn uses the new one, with no restart. Every turn reads
 * the model's id, locality and image support through this holder when it starts (so the privacy
 * rules follow the new server's locality); a reply already streaming finishes on the model it began with.
 */
import type { ChatChunk, ChatModel, ChatRequest } from '../core/ports/index.js';

export class LiveChatModel implements ChatModel {
  constructor(private current: ChatModel) {}

  get id(): string {
    return this.current.id;
  }

  get locality(): ChatModel['locality'] {
    return this.current.locality;
  }

  get acceptsImages(): boolean {
    return this.current.acceptsImages;
  }

  /** The model the next turn will use. */
  get model(): ChatModel {
    return this.current;
  }

  stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    return this.current.stream(request);
  }

  swap(next: ChatModel): void {
    this.current = next;
  }
}
