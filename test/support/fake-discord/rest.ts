/**
 * REST routes of the fake Discord (paths without the /api/v10 prefix). Bot-created messages
 * are stored and echoed back over the gateway as MESSAGE_CREATE, as Discord does.
 */
import { channelPayload, messagePayload, userPayload, type Json } from './payloads.js';
import type { FakeDiscord, InteractionRecord } from './server.js';

export interface RestCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Json | null;
}

type Out = { status: number; body?: unknown };

const notFound: Out = { status: 404, body: { message: 'Unknown route', code: 0 } };

export function routeRest(fake: FakeDiscord, call: RestCall): Out {
  const { method, path } = call;
  const body = call.body ?? {};
  let m: RegExpExecArray | null;
  if (method === 'GET' && (path === '/gateway/bot' || path === '/gateway')) {
    return ok({ url: fake.gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 } });
  }
  if (method === 'GET' && path === '/users/@me') return ok({ ...userPayload(fake.bot), verified: true });
  if (method === 'GET' && path === '/users/@me/guilds') return ok([...fake.guilds.values()].map((g) => ({ id: g.id, name: g.name, icon: null, owner: false, permissions: '0', features: [] })));
  if (method === 'GET' && (path === '/applications/@me' || path === '/oauth2/applications/@me')) {
    return ok({
      id: fake.applicationId,
      name: fake.bot.username,
      description: '',
      icon: null,
      bot_public: false,
      bot_require_code_grant: false,
      flags: fake.applicationFlags,
      owner: userPayload(fake.owner),
      team: null,
      verify_key: 'x',
    });
  }
  if (method === 'POST' && path === '/users/@me/channels') {
    // opens (or finds) the DM channel with a user, as Discord does for user.createDM()
    const user = fake.users.get(String(body.recipient_id));
    return user ? ok(channelPayload(fake.dmChannel(user), user)) : notFound;
  }
  if ((m = /^\/channels\/(\d+)$/.exec(path)) && method === 'GET') {
    const channel = fake.channels.get(m[1]!);
    return channel ? ok(channelPayload(channel)) : notFound;
  }
  if ((m = /^\/channels\/(\d+)\/typing$/.exec(path)) && method === 'POST') return { status: 204 };
  if ((m = /^\/channels\/(\d+)\/messages$/.exec(path)) && method === 'POST') {
    const channel = fake.channels.get(m[1]!);
    if (!channel) return notFound;
    if (channel.type === 1 && fake.closedDms.has(channel.name.replace(/^dm-/, ''))) return { status: 403, body: { message: 'Cannot send messages to this user', code: 50007 } };
    // enforce_nonce: a second send with the same nonce returns the first message (Discord dedups)
    const same = body.enforce_nonce && body.nonce ? [...fake.messages.values()].find((x) => x.channel_id === channel.id && x.nonce === body.nonce) : undefined;
    if (same) return ok(same);
    const ref = (body.message_reference as Json | undefined)?.message_id;
    const payload = {
      ...messagePayload({ id: fake.ids.next(), channel, author: fake.bot, content: '', replyTo: ref ? fake.messages.get(String(ref)) : undefined }),
      ...pickMessageFields(body),
    };
    fake.messages.set(String(payload.id), payload);
    fake.gateway.dispatch('MESSAGE_CREATE', payload);
    return ok(payload);
  }
  if ((m = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path))) {
    const message = fake.messages.get(m[2]!);
    if (!message) return notFound;
    if (method === 'GET') return ok(message);
    if (method === 'PATCH') {
      Object.assign(message, pickMessageFields(body), { edited_timestamp: new Date().toISOString() });
      return ok(message);
    }
    if (method === 'DELETE') {
      fake.messages.delete(m[2]!);
      return { status: 204 };
    }
  }
  if ((m = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path)) && method === 'POST') {
    const record = fake.interactions.get(decodeURIComponent(m[2]!));
    if (!record) return { status: 404, body: { message: 'Unknown interaction', code: 10062 } };
    record.callbacks.push(body);
    const type = Number(body.type);
    const data = (body.data as Json | undefined) ?? {};
    if (type === 4 || type === 5) record.original = interactionMessage(fake, record, data);
    const used = type === 7 && record.messageId ? fake.messages.get(record.messageId) : undefined;
    if (used) Object.assign(used, pickMessageFields(data), { edited_timestamp: new Date().toISOString() });
    return { status: 204 };
  }
  if ((m = /^\/webhooks\/(\d+)\/([^/]+)$/.exec(path)) && method === 'POST') {
    const record = fake.interactions.get(decodeURIComponent(m[2]!));
    if (!record) return notFound;
    const message = interactionMessage(fake, record, body);
    record.followups.push(message);
    return ok(message);
  }
  if ((m = /^\/webhooks\/(\d+)\/([^/]+)\/messages\/([^/]+)$/.exec(path))) {
    const record = fake.interactions.get(decodeURIComponent(m[2]!));
    if (!record) return notFound;
    const which = decodeURIComponent(m[3]!);
    const target = which === '@original' ? record.original : (record.followups.find((f) => f.id === which) ?? null);
    if (!target) return notFound;
    if (method === 'GET') return ok(target);
    if (method === 'PATCH') return ok(Object.assign(target, pickMessageFields(body)));
    if (method === 'DELETE') return { status: 204 };
  }
  if ((m = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(path))) {
    const key = m[2] ? `guild:${m[2]}` : 'global';
    if (method === 'PUT') {
      const list = (Array.isArray(call.body) ? (call.body as Json[]) : []).map((c) => ({ ...c, id: fake.ids.next(), application_id: m![1], version: '1' }));
      fake.registeredCommands.set(key, list);
      return ok(list);
    }
    if (method === 'GET') return ok(fake.registeredCommands.get(key) ?? []);
  }
  return notFound;
}

function ok(body: unknown): Out {
  return { status: 200, body };
}

function pickMessageFields(body: Json): Json {
  const out: Json = {};
  for (const k of ['content', 'embeds', 'components', 'flags', 'allowed_mentions', 'nonce', 'enforce_nonce']) if (k in body) out[k] = body[k];
  return out;
}

function interactionMessage(fake: FakeDiscord, record: InteractionRecord, data: Json): Json {
  const channelId = findInteractionChannel(fake, record);
  const channel = channelId ? fake.channels.get(channelId) : undefined;
  const base = channel
    ? messagePayload({ id: fake.ids.next(), channel, author: fake.bot, content: '' })
    : { id: fake.ids.next(), content: '', author: userPayload(fake.bot), embeds: [], components: [] };
  const message: Json = { ...base, ...pickMessageFields(data), interaction_token: record.token };
  fake.messages.set(String(message.id), message);
  return message;
}

function findInteractionChannel(fake: FakeDiscord, record: InteractionRecord): string | undefined {
  return fake.interactionChannels.get(record.token);
}
