import { describe, expect, it } from 'vitest';
import { TurnHub } from '../../src/web/turns.js';

describe('TurnHub keeps a bounded number of finished turns', () => {
  it('after many quick turns, keeps only the newest finished ones, and the latest still replays', () => {
    let now = 1_000;
    const hub = new TurnHub(120_000, () => now, 8);
    const owner = TurnHub.owner('u1', 'home');
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const turn = hub.start(owner);
      ids.push(turn.id);
      hub.push(turn, 'text_delta', { text: `reply ${i}` });
      hub.finish(turn);
      now += 10; // far inside keepMs: only the count bound can drop them
    }
    hub.start(owner); // pruning happens as a turn starts
    expect(hub.finished).toBeLessThanOrEqual(8);
    expect(hub.get(ids[0]!, 'u1')).toBeNull();
    const last = hub.get(ids.at(-1)!, 'u1');
    expect(last?.events.map((e) => e.data)).toEqual([{ text: 'reply 199' }]);
  });

  it('never drops a running turn to make room', () => {
    let now = 0;
    const hub = new TurnHub(120_000, () => now, 2);
    const owner = TurnHub.owner('u1', 'home');
    const running = hub.start(owner);
    for (let i = 0; i < 10; i++) {
      hub.finish(hub.start(owner));
      now += 1;
    }
    hub.start(owner);
    expect(hub.running().map((t) => t.id)).toContain(running.id);
    expect(hub.finished).toBe(2);
  });

  it('still lets finished turns expire by age', () => {
    let now = 0;
    const hub = new TurnHub(1_000, () => now, 100);
    const owner = TurnHub.owner('u1', 'home');
    hub.finish(hub.start(owner));
    now += 5_000;
    hub.start(owner);
    expect(hub.finished).toBe(0);
  });
});
