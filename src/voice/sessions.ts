/**
 * The voice sessions of one bot: at most one per guild, held by this instance (no globals).
 * `/voice join|leave|status` talk to it; the Discord client's voice state updates reach it
 * through `watch(client)` so an emptied channel is left.
 */
import type { VoiceSession, VoiceSessionDeps, VoiceStatus, VoiceTarget } from './session.js';
import { VoiceSession as Session } from './session.js';

export type JoinResult = { outcome: 'joined' | 'moved' | 'already'; status: VoiceStatus };

/** The part of a discord.js Client this needs. */
export interface VoiceStateSource {
  on(event: 'voiceStateUpdate', listener: (oldState: { guild: { id: string } }, newState: { guild: { id: string } }) => void): unknown;
}

export class VoiceSessions {
  private readonly sessions = new Map<string, VoiceSession>();
  private readonly watched = new WeakSet<object>();

  constructor(
    private readonly deps: VoiceSessionDeps,
    private readonly createSession: (target: VoiceTarget, deps: VoiceSessionDeps, onLeft: (reason: string) => void) => VoiceSession = (t, d, l) => new Session(t, d, l),
  ) {}

  /** Join `target`'s voice channel; moves an existing session of the guild if the channel differs. */
  async join(target: VoiceTarget): Promise<JoinResult> {
    const existing = this.sessions.get(target.guildId);
    if (existing && existing.target.voiceChannelId === target.voiceChannelId && existing.target.textChannelId === target.textChannelId) {
      return { outcome: 'already', status: existing.status() };
    }
    if (existing) existing.leave('moved');
    const session = this.createSession(target, this.deps, (reason) => {
      if (this.sessions.get(target.guildId) === session) this.sessions.delete(target.guildId);
      if (!['moved', 'left by command', 'could not connect', 'shutting down'].includes(reason)) {
        void target.post(`👋 Left voice channel ${target.voiceChannelName}: ${reason}.`).catch(() => {});
      }
    });
    this.sessions.set(target.guildId, session);
    await session.start();
    return { outcome: existing ? 'moved' : 'joined', status: session.status() };
  }

  leave(guildId: string): boolean {
    const session = this.sessions.get(guildId);
    if (!session) return false;
    session.leave('left by command');
    return true;
  }

  status(guildId: string): VoiceStatus | null {
    return this.sessions.get(guildId)?.status() ?? null;
  }

  /** Voice state changed somewhere in the guild. */
  membersChanged(guildId: string): void {
    this.sessions.get(guildId)?.membersChanged();
  }

  /** Listen to a client's voice state updates (idempotent per client). */
  watch(client: VoiceStateSource & object): void {
    if (this.watched.has(client)) return;
    this.watched.add(client);
    client.on('voiceStateUpdate', (oldState, newState) => {
      this.membersChanged(newState.guild.id);
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  closeAll(): void {
    for (const s of [...this.sessions.values()]) s.leave('shutting down');
    this.sessions.clear();
  }
}
