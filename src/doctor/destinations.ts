/**
 * Every service this configuration sends anything to, where it runs and what it may receive
 * (src/core/privacy/destinations.ts): printed by `npm run doctor`, shown by /help and the web app.
 * Decided from the configuration alone, without a network call.
 */
import type { Config } from '../config.js';
import { describeDestinations, type Destination } from '../core/privacy/destinations.js';
import { publicUrl } from '../core/privacy/public-url.js';
import { existsSync } from 'node:fs';
import { dataFiles } from '../data-files.js';
import { urlIsLocal } from '../llm/locality.js';
import { remoteIsLocal } from '../sync/remote-locality.js';
import { SqliteJobStore } from '../storage/job-store.js';
import { calendarServers, type CalendarServer } from '../core/time/calendar-servers.js';
import { ok, warn, type Part, type Verdict } from './check.js';
import { localityReason } from './lane.js';
import { consentModeLine } from '../core/privacy/consent-commands.js';
import { precheckApplies } from '../core/turn/precheck.js';

const where = (url: string, setting: 'auto' | 'local' | 'hosted', env: string) => (localityReason(url, setting, env).local ? ('local' as const) : ('hosted' as const));

/** The calendar servers subscribed in DATA_DIR/schedule.db, with their locality (none before the first start). */
export function subscribedCalendars(config: Config): CalendarServer[] {
  const file = dataFiles(config.dataDir).schedule;
  if (!existsSync(file)) return [];
  const jobs = new SqliteJobStore(file);
  try {
    return calendarServers(jobs, (url) => (urlIsLocal(url, config.CALENDAR_LOCALITY) ? 'local' : 'hosted'));
  } finally {
    jobs.close();
  }
}

/**
 * Every service the configuration sends anything to: each subscribed calendar's server, and the
 * servers of data/mcp.json with the locality each declares.
 */
export function configuredDestinations(config: Config, more: { calendars?: readonly CalendarServer[]; toolServers?: readonly { name: string; locality: 'local' | 'hosted' }[] } = {}): Destination[] {
  const { calendars = [], toolServers = [] } = more;
  const out: Destination[] = [];
  if (config.LLM_PROVIDER === 'embedded') out.push({ kind: 'chat', id: 'the embedded model', locality: 'local' });
  else out.push({ kind: 'chat', id: `${config.LLM_MODEL}@${publicUrl(config.LLM_BASE_URL)}`, locality: where(config.LLM_BASE_URL, config.LLM_LOCALITY, 'LLM') });
  const lane = config.memoryLane;
  if (lane) out.push({ kind: 'memory', id: `${lane.model}@${publicUrl(lane.baseUrl)}`, locality: 'local' });
  if (config.EMBEDDER === 'openai' && config.EMBEDDING_BASE_URL)
    out.push({ kind: 'embedder', id: `${config.EMBEDDING_MODEL}@${publicUrl(config.EMBEDDING_BASE_URL)}`, locality: where(config.EMBEDDING_BASE_URL, config.EMBEDDING_LOCALITY, 'EMBEDDING') });
  else out.push({ kind: 'embedder', id: config.EMBEDDER === 'builtin' ? 'the built-in embedder' : config.EMBEDDING_MODEL, locality: 'local' });
  if (config.STT_BASE_URL) out.push({ kind: 'speech-to-text', id: publicUrl(config.STT_BASE_URL), locality: where(config.STT_BASE_URL, config.STT_LOCALITY, 'STT') });
  else out.push({ kind: 'speech-to-text', id: config.STT_MODEL, locality: 'local' });
  out.push(
    config.TTS === 'edge'
      ? { kind: 'text-to-speech', id: `Edge TTS (${config.TTS_VOICE}), local fallback`, locality: 'hosted' }
      : { kind: 'text-to-speech', id: `espeak-ng (${config.TTS_LOCAL_VOICE})`, locality: 'local' },
  );
  for (const c of calendars) out.push({ kind: 'calendar', id: `${c.name} (${c.kind === 'caldav' ? 'CalDAV' : '.ics'}, ${c.address})`, locality: c.locality });
  for (const s of toolServers) out.push({ kind: 'mcp-tool-server', id: s.name, locality: s.locality });
  out.push({ kind: 'mcp-client', id: 'its clients (Claude Desktop, Cursor…)', locality: config.MCP_SERVER_LOCALITY });
  if (config.SYNC_REMOTE)
    out.push({
      kind: 'sync',
      id: `${publicUrl(config.SYNC_REMOTE)}${config.SYNC_ENCRYPT_TO ? ', encrypted (git-remote-gcrypt)' : ''}`,
      locality: remoteIsLocal(config.SYNC_REMOTE, config.SYNC_LOCALITY) ? 'local' : 'hosted',
    });
  return out;
}

/** The doctor's privacy part: one line per service, a warning for each that leaves the machine. */
export function privacyPart(config: Config): Part {
  const list = configuredDestinations(config, { calendars: subscribedCalendars(config) });
  const lines = describeDestinations(list);
  return {
    name: 'privacy',
    checks: [
      ...list.map((d, i) => ({
        name: `privacy: ${d.kind}`,
        run: async () => (d.locality === 'local' ? ok(lines[i] ?? '') : warn(lines[i] ?? '', localHint(d.kind))),
      })),
      // which way asking in the moment goes (docs/privacy.md)
      { name: 'privacy: consent', run: async () => ok(consentModeLine(config.CONSENT_MODE)) },
      // whether the local memory lane judges each message before anything leaves (docs/privacy.md)
      { name: 'privacy: precheck', run: async () => precheckCheck(config, list) },
    ],
  };
}

/**
 * The doctor's precheck line, a warning when a hosted service gets a message's words before
 * anything local judged them: the rules table knows words, so a new wording (slang, a
 * euphemism, another language) reaches it unlabelled (docs/privacy.md, *Before anything leaves*).
 */
export function precheckCheck(config: Config, list: readonly Destination[]): Verdict {
  const line = precheckLine(config, list);
  const judged = /^precheck: (on|not needed)/.test(line);
  const exposed = list.some((d) => (d.kind === 'chat' || d.kind === 'embedder' || d.kind === 'mcp-tool-server') && d.locality === 'hosted');
  if (judged || !exposed) return ok(line);
  return warn(
    line,
    config.PRIVACY_PRECHECK === 'off'
      ? 'a wording the rules do not know reaches the hosted services unlabelled; set PRIVACY_PRECHECK=auto'
      : line.startsWith('precheck: by meaning')
        ? 'the judge by meaning misses some wordings (`npm run bench:judge` reports how many) and keeps every message in another language from hosted services; point MEMORY_LLM_BASE_URL at a local model (Ollama, llama.cpp) so it judges each message first'
        : 'a wording the rules do not know reaches the hosted services unlabelled; point MEMORY_LLM_BASE_URL at a local model (Ollama, llama.cpp) so it judges each message first',
  );
}

/** Whether the memory lane's precheck runs for this configuration (the running app also counts the tool servers that start). */
export function precheckLine(config: Config, list: readonly Destination[]): string {
  const hosted = (kind: Destination['kind']) => list.some((d) => d.kind === kind && d.locality === 'hosted');
  const settings = { mode: config.PRIVACY_PRECHECK, timeoutMs: config.PRIVACY_PRECHECK_TIMEOUT_MS, hostedElsewhere: () => hosted('embedder') || hosted('mcp-tool-server') };
  const applies = precheckApplies(settings, hosted('chat') ? 'hosted' : 'local');
  if (!config.memoryLane && applies)
    return `precheck: by meaning — no local memory model; the built-in judge by meaning (a sentence encoder on this machine, reading English) judges each new message, calendar event, reminder, hand-written line and inbox item the rules let pass before anything leaves (within ${config.PRIVACY_PRECHECK_TIMEOUT_MS} ms, else it is kept from hosted services)`;
  if (!config.memoryLane) return 'precheck: none — no local memory model; the rules alone label a new message before it leaves';
  if (applies)
    return `precheck: on — the local memory model judges each new message, calendar event, reminder, hand-written line and inbox item before anything leaves (within ${config.PRIVACY_PRECHECK_TIMEOUT_MS} ms, else it is kept from hosted services)`;
  return config.PRIVACY_PRECHECK === 'off'
    ? 'precheck: off (PRIVACY_PRECHECK=off) — the rules alone label a new message before it leaves'
    : 'precheck: not needed — the chat model and the embedder are local (a hosted tool server of data/mcp.json switches it on)';
}

/** What keeps a hosted destination's data here: a setting of the configuration, or data/mcp.json's field. */
export function localHint(kind: Destination['kind']): string {
  // the voice has no locality to declare: Edge is Microsoft's, the local one is espeak-ng
  if (kind === 'text-to-speech') return 'this service is outside this machine; set TTS=local to speak with espeak-ng here';
  const declare =
    kind === 'mcp-tool-server'
      ? 'set its "locality": "local" in data/mcp.json'
      : `set ${{ chat: 'LLM', memory: 'MEMORY_LLM', embedder: 'EMBEDDING', 'speech-to-text': 'STT', 'mcp-client': 'MCP_SERVER', calendar: 'CALENDAR', sync: 'SYNC' }[kind]}_LOCALITY=local`;
  return `this service is outside this machine; point it at a local server, or ${declare} if it is yours`;
}
