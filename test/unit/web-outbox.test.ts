/**
 * Where a due reminder goes when it was set in the web app: to the open pages of the people it
 * is for (a private one only to its owner's pages), once per occurrence key; with no page open,
 * to the place's own front door (a Discord DM) when there is one, else the post fails and the
 * scheduler tries again.
 */
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import type { Outbox, OutboxMessage } from '../../src/core/time/outbox.js';
import { isDiscordPlace, isWebPlace, OutboxRouter } from '../../src/time/outbox-router.js';
import { WebTimeOutbox, type WebDelivery } from '../../src/web/outbox.js';

const dm: Place = { kind: 'private', userId: '123456789', userName: 'Ann' };
const webProject: Place = { kind: 'project', origin: { name: 'Home', key: 'web:home' } };
const message = (key: string, door?: 'web'): OutboxMessage => ({ text: '⏰ Reminder: bread', key, jobId: 'rem-1', actions: ['snooze', 'done'], ...(door ? { door } : {}) });

class RecordingDoor implements Outbox {
  readonly posts: string[] = [];
  post(_place: Place, m: OutboxMessage): Promise<void> {
    this.posts.push(m.key);
    return Promise.resolve();
  }
}

function setup() {
  const web = new WebTimeOutbox();
  const discord = new RecordingDoor();
  const router = new OutboxRouter();
  router.add(isDiscordPlace, discord);
  router.add(isWebPlace, web, 'web');
  return { web, discord, router };
}

describe('the web front door for reminders', () => {
  it('shows a private reminder on its owner’s open pages only, and an occurrence once', async () => {
    const { web, discord, router } = setup();
    const ann: WebDelivery[] = [];
    const bob: WebDelivery[] = [];
    web.listen('123456789', (d) => ann.push(d));
    web.listen('987654321', (d) => bob.push(d));
    await router.post(dm, message('rem-1@1', 'web'));
    await router.post(dm, message('rem-1@1', 'web')); // a redelivery after a crash
    expect(ann.map((d) => d.key)).toEqual(['rem-1@1']);
    expect(bob).toEqual([]);
    expect(discord.posts).toEqual([]);
  });

  it('falls back to the DM when no page is open, and a web project’s reminder waits for a page', async () => {
    const { web, discord, router } = setup();
    await router.post(dm, message('rem-1@2', 'web'));
    expect(discord.posts).toEqual(['rem-1@2']);
    await expect(router.post(webProject, message('rem-2@1'))).rejects.toThrow(/no page of the web app is open/);
    const seen: string[] = [];
    const close = web.listen('anyone', (d) => seen.push(d.key));
    await router.post(webProject, message('rem-2@1'));
    expect(seen).toEqual(['rem-2@1']);
    close();
    await expect(router.post(webProject, message('rem-2@2'))).rejects.toThrow();
  });

  it('leaves a reminder without a door to the place’s own front door', async () => {
    const { web, discord, router } = setup();
    const seen: string[] = [];
    web.listen('123456789', (d) => seen.push(d.key));
    await router.post(dm, message('rem-3@1'));
    expect(discord.posts).toEqual(['rem-3@1']);
    expect(seen).toEqual([]);
  });
});
