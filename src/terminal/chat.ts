/**
 * The terminal front door: an interactive chat in one project, from a terminal or piped input.
 * Shows each tool call and its result as it happens; `/memory show`, `/memory reflect`, `/project style TEXT`,
 * `/project distill`, `/search QUERY`, `/help`, `/quit`.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { AssistantApi } from '../core/assistant-api.js';
import type { Place } from '../core/place.js';

/** The terminal uses every slice but the private one (a terminal conversation is a project). */
type TerminalAssistant = Omit<AssistantApi, 'private'>;
import type { TurnEvent } from '../core/turn/events.js';
import { ingestStatusText, type IngestStatus } from '../core/writing/ingest-status.js';
import { describeLane } from '../core/lanes.js';
import { reportText } from '../core/reflection/reflection.js';
import { parseTargetToken, targetToken } from '../core/inspector/tombstones.js';
import { whyText } from '../core/inspector/why.js';
import type { ToolConfirm } from '../core/tools/tool.js';
import type { ConsentAccess } from '../core/privacy/consent.js';
import { consentModeLine, privacyCommand, PRIVACY_HELP } from '../core/privacy/consent-commands.js';
import { LineReader, terminalConsent } from './consent.js';
import { eventLine, palette, renderMemory, type Palette } from './render.js';
import type { ReminderDesk } from '../core/time/reminder-desk.js';
import type { CalendarDesk } from '../core/time/calendar.js';
import type { MorningBrief } from '../core/time/brief.js';
import { calendarCommand, CALENDAR_HELP, remindCommand, REMIND_HELP } from './time.js';
import type { TerminalOutbox } from './outbox.js';
import { errorMessage } from '../util/error-text.js';
import { machinesCommand, MACHINES_HELP, type MachineBook } from '../core/machines/machine-book.js';
import { askerFor } from '../core/time/reminder-desk.js';
import type { SyncEngine } from '../core/ports/index.js';
import { SYNC_HELP, syncCommand } from '../core/sync/sync-command.js';

export interface TerminalOptions {
  assistant: TerminalAssistant;
  projectName: string;
  assistantName: string;
  input: Readable;
  output: Writable;
  interactive: boolean;
  color: boolean;
  /** Resolves to null when the model server answers, or to one line saying what to do. */
  modelStatus: Promise<string | null>;
  /** Called once the opening lines are written, before the first input is read: work that may wait for the prompt. */
  shown?: () => void;
  userName: string;
  /** One line per MCP tool server (state, tool count or error), for /help. */
  toolServers?: () => string[];
  /** One line per service Charlie sends anything to: where it runs, what it may receive (/help). */
  services?: readonly string[];
  /** Reminders (/remind) and where their deliveries are printed, while the scheduler runs. */
  time?: { desk: ReminderDesk; outbox: TerminalOutbox; calendar?: CalendarDesk; brief?: MorningBrief };
  /** `/memory ingest`: where the project's big inbox files stand (the ingest service). */
  ingest?: IngestStatus;
  /** `/machines`: the machines and logins memory knows, with credential badges; revoke and forget. */
  machines?: MachineBook;
  /** `/sync status`, `/sync now`: this device's sync across the household's devices (null when SYNC_REMOTE is unset). */
  sync?: SyncEngine | null;
}

export const HELP = `commands: /memory show · /memory forget [ITEM] [--messages] · /memory candidates · /memory promote KEY · /memory review · /memory hold ID · /memory why FACT · /memory reflect · /memory ingest · /memory restore [PAGE [VERSION]] · /project style TEXT · /project distill · /search QUERY · ${REMIND_HELP} · ${CALENDAR_HELP} · ${MACHINES_HELP} · ${PRIVACY_HELP} · ${SYNC_HELP} · /help · /quit`;

function modelsLine(assistant: Pick<AssistantApi, 'lanes'>): string {
  return assistant.lanes().map(describeLane).join('\n');
}

export async function runTerminal(o: TerminalOptions): Promise<void> {
  const p = palette(o.color);
  const write = (s: string) => o.output.write(s);
  const place: Place = { kind: 'project', origin: { name: o.projectName, key: `terminal:${o.projectName}` } };
  const view = await o.assistant.settings.showMemory(place);
  write(`${p.bold(o.assistantName)} — project ${p.bold(view.project)}. ${p.dim(HELP)}\n${p.dim(modelsLine(o.assistant))}\n`);
  const down = await o.modelStatus;
  if (down) write(p.warn(`! ${down}. Memory commands still work.\n`));
  o.shown?.();

  const closeOutbox = o.time?.outbox.open(write);
  const rl = createInterface({ input: o.input, terminal: o.interactive, crlfDelay: Infinity });
  // one reader for both the chat and the y/N of a tool confirmation in the middle of a turn
  const lines = new LineReader(rl[Symbol.asyncIterator]());
  const confirm = confirmer(lines, p, write);
  const consent = terminalConsent(o.userName, lines, p, write);
  const prompt = () => {
    if (o.interactive) write(p.bold('you › '));
  };
  prompt();
  for (let next = await lines.read(); !next.done; next = await lines.read()) {
    const line = next.value.trim();
    if (lines.lateAnswer(line)) {
      write(p.dim('(that answer came too late: it was held back)\n'));
      prompt();
      continue;
    }
    if (!line) {
      prompt();
      continue;
    }
    if (line === '/quit' || line === '/exit') break;
    try {
      if (line === '/help') write(`${helpText(o)}\n`);
      else if (line === '/remind' || line.startsWith('/remind ')) write(`${await remindCommand(line.slice('/remind'.length), o.time?.desk, place, o.userName, o.time?.brief)}\n`);
      else if (line === '/calendar' || line.startsWith('/calendar ')) write(`${await calendarCommand(line.slice('/calendar'.length), o.time?.calendar, place, o.userName)}\n`);
      else if (line === '/machines' || line.startsWith('/machines ')) write(`${await machinesCommand(line.slice('/machines'.length), o.machines, place, askerFor(place, o.userName))}\n`);
      else if (line === '/privacy' || line.startsWith('/privacy ')) write(`${await privacyCommand(line.slice('/privacy'.length), o.assistant.privacy, consent.person.id)}\n`);
      else if (line === '/memory ingest') write(`${await ingestStatusReply(o, place)}\n`);
      else if (line === '/sync' || line.startsWith('/sync ')) write(`${await syncCommand(line.slice('/sync'.length), o.sync)}\n`);
      else if (line.startsWith('/')) write(`${await command(line, o.assistant, place, p, o.userName)}\n`);
      else await turn(line, o, place, p, write, { confirm, consent });
    } catch (error) {
      write(p.warn(`! ${errorMessage(error)}\n`));
    }
    prompt();
  }
  rl.close();
  closeOutbox?.();
  write(p.dim('saving memory…\n'));
  await o.assistant.idle();
}

/** `/memory ingest`: the project's big inbox files part-way (rows and bytes of the total, batches, rate). */
async function ingestStatusReply(o: TerminalOptions, place: Place): Promise<string> {
  const config = await o.assistant.settings.projectConfig(place);
  if (!o.ingest || !config) return 'inbox progress is not available here';
  return ingestStatusText(await o.ingest.status(config.slug));
}

/** `/help`: the commands, the models, and one line per MCP tool server. */
function helpText(o: TerminalOptions): string {
  const servers = o.toolServers?.() ?? [];
  const services = o.services ?? [];
  return [
    HELP,
    modelsLine(o.assistant),
    consentModeLine(o.assistant.privacy.consentMode()),
    ...(services.length ? ['services:', ...services.map((s) => `  ${s}`)] : []),
    ...(servers.length ? ['tool servers:', ...servers.map((s) => `  ${s}`)] : []),
  ].join('\n');
}

/** Asks y/N before a tool with side effects runs, showing exactly what it will be sent. */
function confirmer(lines: LineReader, p: Palette, write: (s: string) => void): ToolConfirm {
  return async (request) => {
    write(p.warn(`  ? ${request.server} › ${request.tool} ${JSON.stringify(request.args)}\n    (${request.reason}) run it? [y/N] `));
    const answer = await lines.read();
    const yes = !answer.done && /^\s*y(es)?\s*$/i.test(answer.value);
    write(p.dim(yes ? '    allowed\n' : '    refused\n'));
    return yes;
  };
}

async function turn(text: string, o: TerminalOptions, place: Place, p: Palette, write: (s: string) => void, ask: { confirm: ToolConfirm; consent: ConsentAccess }): Promise<void> {
  let streamed = '';
  let atLineStart = true;
  const onEvent = (event: TurnEvent) => {
    if (event.type === 'text_delta') {
      if (!streamed) write(p.bold(`${o.assistantName} › `));
      streamed += event.text;
      write(event.text);
      atLineStart = event.text.endsWith('\n');
      return;
    }
    const line = eventLine(event, p);
    if (line) {
      if (!atLineStart) write('\n');
      write(`${line}\n`);
      atLineStart = true;
    }
  };
  const outcome = await o.assistant.conversation.handle(
    { place, speaker: o.userName, text, source: `terminal:${Date.now()}`, mode: 'text' },
    { onEvent, tools: { user: { owner: true }, confirm: ask.confirm }, consent: ask.consent },
  );
  // Whatever the stream did not show (an apology, a deadline note) is printed at the end.
  const rest = outcome.reply.startsWith(streamed) ? outcome.reply.slice(streamed.length) : streamed ? '' : outcome.reply;
  if (rest.trim()) write(`${streamed ? '\n' : p.bold(`${o.assistantName} › `)}${rest.trim()}`);
  write('\n');
  if (outcome.reason !== 'done') write(p.dim(`  (turn ended: ${outcome.reason.replace(/_/g, ' ')})\n`));
}

async function command(line: string, assistant: TerminalAssistant, place: Place, p: Palette, userName: string): Promise<string> {
  const [name, sub, ...rest] = line.split(/\s+/);
  const arg = line.replace(/^\/\S+\s+\S+\s*/, '');
  switch (`${name} ${sub ?? ''}`.trim()) {
    case '/memory forget':
      return forgetCommand(rest, assistant, place, p, userName);
    case '/memory show':
    case '/memory':
      return renderMemory(await assistant.settings.showMemory(place), p);
    case '/memory candidates': {
      const waiting = await assistant.memory.memoryCandidates(place);
      if (waiting.length === 0) return p.dim('nothing waits for promotion');
      return [
        p.dim('Waiting for promotion (promoted when said again before they expire; /memory promote KEY promotes now):'),
        ...waiting.map((c) => `${p.bold(c.key)} ${c.score.toFixed(2)}  ${c.entity}: ${c.fact.text}\n  ${p.dim(`“${c.message.slice(0, 160)}” · expires ${c.expires.slice(0, 10)}`)}`),
      ].join('\n');
    }
    case '/memory review': {
      // /memory review                 lists the pairs; /memory review ID keep-new|keep-old|keep-both
      const [id, choice] = rest;
      if (!id) {
        const pairs = await assistant.memory.reviewList(place);
        if (pairs.length === 0) return p.dim('nothing is in review');
        return [
          p.dim('In review (/memory review ID keep-new|keep-old|keep-both):'),
          ...pairs.map(
            (r) =>
              `${p.bold(r.title)} ${p.dim(r.page)}\n  old ${p.bold(r.old.id)} ${r.old.statement} ${p.dim(`(said ${r.old.said || '?'})`)}\n  new ${p.bold(r.new.id)} ${r.new.statement} ${p.dim(`(said ${r.new.said || '?'})`)}`,
          ),
        ].join('\n');
      }
      if (choice !== 'keep-new' && choice !== 'keep-old' && choice !== 'keep-both') return 'usage: /memory review ID keep-new|keep-old|keep-both';
      return (await assistant.memory.resolveReview(place, id, choice)) ? p.dim(`${choice}: done`) : p.warn(`no record ${id} in review`);
    }
    case '/memory why': {
      // a question or a fact ("where does Sarah work"), or record ids (r-3f9a1c)
      if (!arg.trim()) return 'usage: /memory why FACT OR QUESTION (or a record id such as r-3f9a1c)';
      return whyText(await assistant.memory.why(place, { query: arg.trim() }));
    }
    case '/memory hold': {
      const [id] = rest;
      if (!id) return 'usage: /memory hold ID (keeps the record out of answers until you decide)';
      return (await assistant.memory.resolveReview(place, id, 'hold')) ? p.dim(`held ${id}`) : p.warn(`no record ${id}`);
    }
    case '/memory promote': {
      if (!arg.trim()) return 'usage: /memory promote KEY (see /memory candidates)';
      return (await assistant.memory.promoteCandidate(place, arg.trim())) ? p.dim(`promoted ${arg.trim()}`) : p.warn(`no waiting candidate ${arg.trim()}`);
    }
    case '/memory reflect':
      return reportText(await assistant.memory.reflect(place));
    case '/memory restore': {
      // /memory restore               lists the kept versions; PAGE [VERSION] restores one (the newest by default)
      const [page, version] = rest;
      if (!page) {
        const versions = await assistant.memory.pageVersions(place);
        if (versions.length === 0) return p.dim('no earlier page versions are kept');
        return [p.dim('Kept versions (/memory restore PAGE [VERSION]):'), ...versions.map((v) => `${p.bold(v.page.replace(/\.md$/, ''))} ${v.version} ${p.dim(v.file)}`)].join('\n');
      }
      const out = await assistant.memory.restorePage(place, page, version);
      return out.ok ? p.dim(`restored ${out.page} to its version of ${out.version} (the version it replaced is kept too)`) : p.warn(`not restored: ${out.reason}`);
    }
    case '/project style': {
      if (rest.length === 0) return `style: ${(await assistant.settings.showMemory(place)).style || '(none)'}`;
      await assistant.settings.setStyle(place, arg);
      return p.dim(`style set: ${arg}`);
    }
    case '/project distill': {
      const r = await assistant.memory.distillNow(place);
      return r.error ? p.warn(`distillation failed: ${r.error}`) : r.ran ? p.dim(`distilled ${r.messages} messages`) : p.dim('nothing new to distil');
    }
    default:
      if (name === '/search') {
        const query = line.replace(/^\/search\s*/, '');
        if (!query) return 'usage: /search QUERY';
        const hits = await assistant.memory.searchMemory(place, query, 8);
        return hits.length
          ? hits
              .map(
                (h) =>
                  `${p.bold(`${h.page}:${h.lineStart}-${h.lineEnd}`)} ${p.dim(`${h.score.toFixed(2)}${h.confidence !== undefined ? ` confidence ${h.confidence.toFixed(2)}` : ''} ${h.why.join('+')}`)}\n  ${h.text.replace(/\n/g, '\n  ').slice(0, 400)}`,
              )
              .join('\n')
          : 'nothing found';
      }
      return `unknown command ${name}. ${HELP}`;
  }
}

/** `/memory forget` lists what can be forgotten; `/memory forget ITEM [--messages]` forgets it, with a tombstone. */
async function forgetCommand(args: string[], assistant: TerminalAssistant, place: Place, p: Palette, userName: string): Promise<string> {
  const removeMessages = args.includes('--messages');
  const token = args
    .filter((a) => a !== '--messages')
    .join(' ')
    .trim();
  if (!token) {
    const items = await assistant.memory.forgettable(place);
    if (items.length === 0) return 'nothing to forget here';
    return [
      'what can be forgotten (use /memory forget ITEM, add --messages to also remove the messages that said it):',
      ...items.map((i) => `  ${p.bold(targetToken(i.target))}  ${p.dim(i.label.slice(0, 100))}`),
    ].join('\n');
  }
  const target = parseTargetToken(token);
  if (!target) return p.warn(`not an item: ${token} (try /memory forget to list them)`);
  const out = await assistant.memory.forget(place, target, userName, { removeMessages });
  if (!out.forgotten) return p.warn(`nothing to forget at ${token}`);
  return p.dim(`forgot ${out.description}; a tombstone in forgotten.md keeps it from coming back${out.redacted ? `; ${out.redacted} message(s) removed from the archive` : ''}`);
}
