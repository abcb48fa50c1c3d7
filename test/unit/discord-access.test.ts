import { describe, expect, it } from 'vitest';
import { AccessPolicy, ownerIdsOf } from '../../src/discord/access.js';
import { isAddressed, placeFor, stripBotMention } from '../../src/discord/place.js';
import { KeyedQueue } from '../../src/core/keyed-queue.js';
import { SeenIds } from '../../src/discord/seen-ids.js';

describe('AccessPolicy', () => {
  it('with empty lists serves only the owner, in DMs and any guild', () => {
    const p = new AccessPolicy({ allowedUsers: [], allowedGuilds: [] });
    expect(p.allows({ userId: 'owner' })).toBe(false);
    p.setOwners(['owner']);
    expect(p.allows({ userId: 'owner' })).toBe(true);
    expect(p.allows({ userId: 'owner', guildId: 'g' })).toBe(true);
    expect(p.allows({ userId: 'alice' })).toBe(false);
  });

  it('with lists needs an allowed user and, in a guild, an allowed guild', () => {
    const p = new AccessPolicy({ allowedUsers: ['alice'], allowedGuilds: ['home'] });
    p.setOwners(['owner']);
    expect(p.allows({ userId: 'alice', guildId: 'home' })).toBe(true);
    expect(p.allows({ userId: 'alice', guildId: null })).toBe(true);
    expect(p.allows({ userId: 'alice', guildId: 'elsewhere' })).toBe(false);
    expect(p.allows({ userId: 'owner', guildId: 'elsewhere' })).toBe(false);
    expect(p.allows({ userId: 'bob', guildId: 'home' })).toBe(false);
  });

  it('reads owners from a user or a team', () => {
    expect(ownerIdsOf({ id: '1' })).toEqual(['1']);
    expect(
      ownerIdsOf({
        id: 'team',
        members: new Map([
          ['2', {}],
          ['3', {}],
        ]),
      }),
    ).toEqual(['2', '3']);
    expect(ownerIdsOf(null)).toEqual([]);
  });
});

describe('places and addressing', () => {
  it('maps a guild channel to a project keyed by guild and channel, a DM to the user', () => {
    expect(placeFor({ channelId: 'c', guildId: 'g', channelName: 'general' }, { id: 'u', name: 'Ann' })).toEqual({
      kind: 'project',
      origin: { name: 'general', key: 'discord:g:c', discord: { guildId: 'g', channelId: 'c' } },
    });
    expect(placeFor({ channelId: 'd', guildId: null, channelName: null }, { id: 'u', name: 'Ann' })).toEqual({ kind: 'private', userId: 'u', userName: 'Ann' });
  });

  it('counts mentions, replies to the bot and DMs; nothing else', () => {
    const base = { botId: 'b', mentionedUserIds: [], repliedToAuthorId: null, isDM: false };
    expect(isAddressed(base)).toBe(false);
    expect(isAddressed({ ...base, mentionedUserIds: ['x', 'b'] })).toBe(true);
    expect(isAddressed({ ...base, repliedToAuthorId: 'b' })).toBe(true);
    expect(isAddressed({ ...base, repliedToAuthorId: 'x' })).toBe(false);
    expect(isAddressed({ ...base, isDM: true })).toBe(true);
    expect(stripBotMention('<@b> hi <@!b> there <@c>', 'b')).toBe('hi there <@c>');
  });
});

describe('KeyedQueue and SeenIds', () => {
  it('runs one key in order, keys in parallel, and survives a failing task', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      () =>
        new Promise<void>((resolve, reject) =>
          setTimeout(() => {
            log.push(name);
            if (fail) reject(new Error(name));
            else resolve();
          }, ms),
        );
    const a1 = q.run('a', task('a1', 60, true));
    const a2 = q.run('a', task('a2', 5));
    const b1 = q.run('b', task('b1', 20));
    await expect(a1).rejects.toThrow('a1');
    await Promise.all([a2, b1]);
    expect(log).toEqual(['b1', 'a1', 'a2']);
    await q.idle();
    expect(q.activeKeys).toBe(0);
  });

  it('remembers a bounded number of ids', () => {
    const s = new SeenIds(2);
    expect(s.firstTime('1')).toBe(true);
    expect(s.firstTime('1')).toBe(false);
    s.firstTime('2');
    s.firstTime('3');
    expect(s.size).toBe(2);
    expect(s.firstTime('1')).toBe(true);
  });
});
