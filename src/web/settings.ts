/**
 * What the owner's Settings page shows, read-only: which model does each job and where it runs
 * (the doctor's own lane view, with its locality reason), the voice engines and whether they run
 * here, the embedder, and the doctor's last model check. Built from the config in the composition
 * root; no secret (API keys, tokens) is part of it, and server addresses are shown without
 * credentials.
 */
import type { Config } from '../config.js';
import { conformanceStartLine } from '../doctor/conformance-store.js';
import { chatLane, localityReason, memoryLane } from '../doctor/lane.js';
import type { CalendarServer } from '../core/time/calendar-servers.js';
import { withoutHostPaths } from '../core/privacy/public-text.js';
import type { ListeningStatus } from './api-live-settings.js';

export interface SettingsItem {
  /** What the part does, in words. */
  job: string;
  /** Which engine or model does it. */
  what: string;
  /** Where it runs, e.g. `this machine` or a host name. */
  where: string;
  local: boolean;
  why?: string;
}

export interface SettingsView {
  items: SettingsItem[];
  /** The doctor's last model check, or how to run one. */
  doctor: string;
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Each subscribed calendar's server: where it runs, and what that means for sensitive events. */
function calendarItems(config: Config, calendars: readonly CalendarServer[]): SettingsItem[] {
  return calendars.map((c) => ({
    job: `Keeps the calendar ${c.name}`,
    what: c.kind === 'caldav' ? 'CalDAV (read and write)' : '.ics (read only)',
    where: c.address.replace(/^https?:\/\//, '').replace(/\/…$/, ''),
    local: c.locality === 'local',
    why:
      c.locality === 'local'
        ? `a server on your machine or network (CALENDAR_LOCALITY=${config.CALENDAR_LOCALITY})`
        : `a hosted server (CALENDAR_LOCALITY=${config.CALENDAR_LOCALITY}): no sensitive event is written to it, even after a yes`,
  }));
}

/** What is really in use where it differs from the configuration: an embedder that fell back, a speech model not on disk. */
export interface InUse {
  /** Why the configured embedder could not be used (the built-in one answers instead). */
  embedderFallback?: string | null;
  listening?: ListeningStatus;
  /** The voice Read aloud uses now (`none`: no voice was built here), from the live settings. */
  voice?: 'local' | 'edge' | 'none';
}

function embedderItem(config: Config, inUse: InUse): SettingsItem {
  const job = 'Finds related memory (embeddings)';
  if (inUse.embedderFallback) {
    const wanted = config.EMBEDDER === 'openai' ? `the embeddings server (${config.EMBEDDING_MODEL})` : `the configured model ${config.EMBEDDING_MODEL}`;
    return { job, what: 'built-in embedder (by wording, not meaning)', where: 'this machine', local: true, why: `${wanted} failed to load: ${withoutHostPaths(inUse.embedderFallback)}` };
  }
  if (config.EMBEDDER === 'openai' && config.EMBEDDING_BASE_URL) {
    const l = localityReason(config.EMBEDDING_BASE_URL, 'auto', 'EMBEDDING');
    return { job, what: config.EMBEDDING_MODEL, where: host(config.EMBEDDING_BASE_URL), local: l.local, why: l.why };
  }
  if (config.EMBEDDER === 'builtin') return { job, what: 'built-in word hashing', where: 'this machine', local: true };
  return { job, what: config.EMBEDDING_MODEL, where: 'this machine', local: true, why: `EMBEDDER=${config.EMBEDDER}` };
}

/** Where a setting came from when the web app changed it (DATA_DIR/settings.json, over .env). */
function fromWebApp(config: Config, keys: readonly string[]): string {
  return keys.some((k) => (config.fromSettingsFile as readonly string[]).includes(k)) ? ' · set in the web app (data/settings.json, over .env)' : '';
}

export function settingsView(config: Config, calendars: readonly CalendarServer[] = [], inUse: InUse = {}): SettingsView {
  const chat = chatLane(config);
  const memory = memoryLane(config);
  const embedded = config.LLM_PROVIDER === 'embedded';
  const items: SettingsItem[] = [
    embedded
      ? { job: 'Answers in chat', what: 'the embedded model', where: 'this machine', local: true, why: 'LLM_PROVIDER=embedded' }
      : { job: 'Answers in chat', what: chat.model, where: host(chat.shownUrl), local: chat.local, why: `${chat.localWhy}${fromWebApp(config, ['LLM_BASE_URL', 'LLM_MODEL'])}` },
    memory
      ? { job: 'Writes memory (distils, reviews, reflects)', what: memory.model, where: host(memory.shownUrl), local: memory.local, why: memory.localWhy }
      : { job: 'Writes memory (distils, reviews, reflects)', what: 'nothing', where: '—', local: true, why: 'no local model: set MEMORY_LLM_BASE_URL to a model on your own machine' },
  ];
  items.push(embedderItem(config, inUse));
  const deaf = inUse.listening && !inUse.listening.available ? inUse.listening : null;
  if (deaf) items.push({ job: 'Understands speech', what: 'not available', where: '—', local: true, why: [deaf.reason, deaf.fix].filter(Boolean).join(' — ') });
  else if (config.STT === 'openai' && config.STT_BASE_URL) {
    const l = localityReason(config.STT_BASE_URL, 'auto', 'STT');
    items.push({ job: 'Understands speech', what: config.STT_SERVER_MODEL, where: host(config.STT_BASE_URL), local: l.local, why: l.why });
  } else items.push({ job: 'Understands speech', what: config.STT_MODEL, where: 'this machine', local: true });
  items.push(
    inUse.voice === 'none'
      ? { job: 'Speaks', what: 'not available', where: '—', local: true, why: 'no voice is set up on this Charlie: Read aloud and spoken replies are off' }
      : config.TTS === 'local'
        ? { job: 'Speaks', what: `eSpeak NG (${config.TTS_LOCAL_VOICE})`, where: 'this machine', local: true, why: `TTS=local${fromWebApp(config, ['TTS', 'TTS_LOCAL_VOICE'])}` }
        : {
            job: 'Speaks',
            what: `Microsoft Edge voices (${config.TTS_VOICE})`,
            where: 'speech.platform.bing.com',
            local: false,
            why: `TTS=edge sends the reply text to Microsoft; TTS=local keeps it here${fromWebApp(config, ['TTS', 'TTS_VOICE'])}`,
          },
  );
  items.push(...calendarItems(config, calendars));
  return { items, doctor: embedded ? 'the embedded model runs here (npm run doctor checks it)' : conformanceStartLine(config.dataDir, chat.model, chat.baseUrl) };
}
