/**
 * The gateway half of the fake Discord: HELLO, IDENTIFY → READY (+ GUILD_CREATE), heartbeats
 * with ACKs, RESUME with replay of missed dispatches, and dispatch of events to the client.
 * JSON encoding, no compression (discord.js uses none without zlib-sync).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Json } from './payloads.js';

export interface GatewayOptions {
  token: string;
  heartbeatIntervalMs: number;
  /** Close IDENTIFY with 4014 (privileged intent not enabled in the portal). */
  rejectPrivilegedIntents?: boolean;
  /** READY's `d` for a new session (session id and resume URL are filled in). */
  ready: () => Json;
  /** Dispatches sent right after READY (GUILD_CREATE per guild). */
  afterReady: () => { t: string; d: Json }[];
}

interface Session {
  id: string;
  seq: number;
  events: { s: number; t: string; d: Json }[];
}

export class FakeGateway {
  readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private readonly live = new Set<WebSocket>();
  private session: Session | null = null;
  private sessionCounter = 0;
  private extraReplay = 0;
  /** Every op the client sent, in order (e.g. 2 IDENTIFY, 6 RESUME, 1 heartbeat). */
  readonly received: { op: number; d: unknown }[] = [];
  identifies = 0;
  resumes = 0;

  constructor(
    private readonly options: GatewayOptions,
    private readonly resumeUrl: () => string,
  ) {}

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
  }

  /** Sends an event to the connected client, or queues it for replay on RESUME when disconnected. */
  dispatch(t: string, d: Json): void {
    const s = this.session;
    if (!s) return; // no session: the event is lost, as on Discord
    s.seq += 1;
    const event = { s: s.seq, t, d };
    s.events.push(event);
    for (const ws of this.live) send(ws, { op: 0, ...event });
  }

  /** Drops every connection with a resumable close code (the client should RESUME). */
  disconnect(code = 4000): void {
    for (const ws of this.sockets) ws.close(code, 'fake gateway disconnect');
    this.live.clear();
  }

  /** Forgets the session: the client's next RESUME gets INVALID_SESSION and must IDENTIFY again. */
  invalidateSession(): void {
    this.session = null;
  }

  /** On the next RESUME also replay the last `n` events the client already saw (a sloppy server). */
  replayExtraOnResume(n: number): void {
    this.extraReplay = n;
  }

  get connected(): number {
    return this.live.size;
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    this.live.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private onConnection(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('close', () => {
      this.sockets.delete(ws);
      this.live.delete(ws);
    });
    ws.on('message', (raw) => {
      let msg: { op: number; d: unknown };
      try {
        msg = JSON.parse(String(raw)) as { op: number; d: unknown };
      } catch {
        ws.close(4002, 'decode error');
        return;
      }
      this.received.push(msg);
      this.onOp(ws, msg.op, msg.d as Json | null);
    });
    send(ws, { op: 10, d: { heartbeat_interval: this.options.heartbeatIntervalMs } });
  }

  private onOp(ws: WebSocket, op: number, d: Json | null): void {
    switch (op) {
      case 1:
        send(ws, { op: 11 });
        return;
      case 2:
        if (d?.token !== this.options.token) {
          ws.close(4004, 'Authentication failed.');
          return;
        }
        if (this.options.rejectPrivilegedIntents && (Number(d.intents) & (1 << 15)) !== 0) {
          ws.close(4014, 'Disallowed intent(s).');
          return;
        }
        this.identifies += 1;
        this.startSession(ws);
        return;
      case 6:
        this.resume(ws, d ?? {});
        return;
      default:
        return; // presence (3), voice state (4), request members (8): accepted and ignored
    }
  }

  private startSession(ws: WebSocket): void {
    this.sessionCounter += 1;
    this.session = { id: `fake-session-${this.sessionCounter}`, seq: 0, events: [] };
    this.live.add(ws);
    this.dispatch('READY', { ...this.options.ready(), session_id: this.session.id, resume_gateway_url: this.resumeUrl() });
    for (const e of this.options.afterReady()) this.dispatch(e.t, e.d);
  }

  private resume(ws: WebSocket, d: Json): void {
    const s = this.session;
    if (d.token !== this.options.token) {
      ws.close(4004, 'Authentication failed.');
      return;
    }
    if (!s || d.session_id !== s.id) {
      send(ws, { op: 9, d: false });
      return;
    }
    this.resumes += 1;
    const from = Number(d.seq ?? 0) - this.extraReplay;
    this.extraReplay = 0;
    for (const e of s.events) if (e.s > from) send(ws, { op: 0, ...e });
    this.live.add(ws);
    this.dispatch('RESUMED', {});
  }
}

function send(ws: WebSocket, payload: Json): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ s: null, t: null, ...payload }));
}
