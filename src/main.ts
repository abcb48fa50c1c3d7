/**
 * The composition root: the only place adapters are constructed. Reads the config once,
 * builds the adapters, hands them to the core, and starts a front door — the Discord bot
 * when DISCORD_TOKEN is set, otherwise the terminal chat. The front-door starters and start-up
 * helpers it calls live in src/app/, which only this file imports.
 */
import { fileCandidateStore } from './memory/records/candidate-store.js';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { applyIndexRuntime, loadConfig, type Config } from './config.js';
import { dataFiles } from './data-files.js';
import { Assistant } from './core/assistant.js';
import { TEXT_BUDGET_CHARS } from './core/turn/prompt.js';
import { CharlieError } from './core/errors.js';
import { systemClock, type Clock, type LogEntry, type Logger } from './core/ports/index.js';
import { publicUrl, urlIsLocal } from './llm/locality.js';
import { serverChatModel, type ChatModelBuild } from './llm/provider.js';
import { chooseChatModel } from './app/model-choice.js';
import { loggerAfterStart } from './app/log-after-start.js';
import { FileProjectStore } from './memory/store/project-store.js';
import { runTerminal } from './terminal/chat.js';
import { createSpeechToText } from './speech/stt/create.js';
import { createTextToSpeech } from './speech/tts/create.js';
import { SqlitePrivateStore } from './storage/private-store.js';
import { FileWriteRequestStore } from './storage/write-request-store.js';
import { graphTombstoneCheck } from './memory/tombstones.js';
import { openUsageStore } from './storage/usage-store.js';
import { selectEmbedder } from './llm/embeddings.js';
import { UniversalSentenceEncoder } from './llm/sentence-encoder.js';
import type { ModelDownloadStep } from './llm/transformers-runtime.js';
import { createRecall, recallSettings } from './memory/recall.js';
import { memoryBudget } from './memory/index/memory-budget.js';
import { nativeHeap } from './memory/index/native-heap.js';
import { Wiki } from './memory/graph/wiki.js';
import { IngestService } from './memory/ingest/ingest-service.js';
import { FileReflectionPages } from './memory/reflect/reflection-pages.js';
import { attachBackups } from './backup/backup-schedule.js';
import { Reflection, type ReflectionReport } from './core/reflection/reflection.js';
import { createMcpSource } from './mcp/client/create.js';
import { randomBytes } from 'node:crypto';
import { SqliteJobStore } from './storage/job-store.js';
import { Scheduler } from './core/time/scheduler.js';
import { ReminderDesk } from './core/time/reminder-desk.js';
import { keepInternalJob } from './core/time/internal-jobs.js';
import { isTerminalPlace, OutboxRouter } from './time/outbox-router.js';
import { startTicker } from './time/ticker.js';
import { TerminalOutbox } from './terminal/outbox.js';
import { CalendarDesk } from './core/time/calendar.js';
import { CalendarConnectorImpl } from './time/calendar/connector.js';
import { calendarRecords } from './time/calendar-records.js';
import { FollowUps } from './core/time/follow-ups.js';
import { MorningBrief } from './core/time/brief.js';
import { projectCommitments } from './time/commitment-book.js';
import { bothBooks, privateCommitments } from './time/private-commitments.js';
import { describeDestinations } from './core/privacy/destinations.js';
import { configuredDestinations } from './doctor/destinations.js';
import { tightenFolder } from './storage/private-files.js';
import { assistantSettings, backupSettings, echoDownload, makeFolder, modelStartLines, ownerName, precheckSettings } from './app/startup.js';
import { lockDataFolder } from './app/data-lock.js';
import { removeStaleRestores } from './backup/stale-restores.js';
import { mcpLines, startWebApp } from './app/web-door.js';
import { startDiscordDoor } from './app/discord-door.js';
import { buildMachineBook, buildMachines } from './app/machines.js';
import { createDistillLedger, createSync, reindexChanged } from './sync/create.js';
import { attachSyncing } from './sync/sync-schedule.js';
import type { App } from './app/app.js';
import { memoryLaneModel } from './app/memory-lane.js';
import { textPrecheck } from './core/turn/precheck.js';
import { MeaningJudge } from './core/privacy/meaning-judge.js';
import { HAND_LAYER_FILES, HandLabels } from './memory/graph/hand-labels.js';
import { LiveSettings, withSettingsKey } from './app/live-settings.js';
import { AgeVault } from './machines/age-vault.js';

export async function buildApp(config: Config, logger: Logger, onDownload?: (step: ModelDownloadStep) => void, chat?: ChatModelBuild, clock: Clock = systemClock): Promise<App> {
  // data/ holds every DM, the schedule, tokens: 0700, its files 0600 (an older install is tightened)
  makeFolder('DATA_DIR', config.dataDir, { private: true });
  makeFolder('PROJECTS_DIR', config.projectsDir);
  const chatModel = chat ?? serverChatModel(config, logger.child({ component: 'llm' }));
  // the memory lane keeps the model it started with; the chat lane is read through the live settings (the web app swaps it)
  const memoryModel = memoryLaneModel(config, chatModel.model, logger);
  const notices: string[] = [];
  if (!memoryModel)
    notices.push(
      `the chat model at ${publicUrl(config.LLM_BASE_URL)} is hosted and no local memory model is set: Charlie answers, and keeps requests to remember as candidates until MEMORY_LLM_BASE_URL names a local model (or set LLM_LOCALITY=local if that server is yours)`,
    );
  const graph = new Wiki({ projectsDir: config.projectsDir, clock, logger: logger.child({ component: 'graph' }), isForgotten: graphTombstoneCheck(config.projectsDir) });
  // DM memory lives only here (not disposable); usage is a derived ranking hint (disposable).
  const privateStore = new SqlitePrivateStore(dataFiles(config.dataDir).private);
  // A damaged private.db pauses DMs only; the message names the file and how to recover it.
  if (privateStore.problem) notices.push(privateStore.problem.message);
  const usage = openUsageStore(dataFiles(config.dataDir).usage, logger);
  const { embedder, notice, fallbackReason } = await selectEmbedder(config, logger.child({ component: 'embedder' }), onDownload);
  if (notice) notices.push(notice);
  applyIndexRuntime(config);
  const retrieval = createRecall({
    projectsDir: config.projectsDir,
    dataDir: config.dataDir,
    embedder,
    usage,
    logger,
    clock,
    ...recallSettings(config),
    links: (project) => graph.linkMap(project),
    budget: memoryBudget(config.CHARLIE_MEMORY_BUDGET),
    freed: nativeHeap(logger.child({ component: 'native-heap' })).freed,
  });
  const store = new FileProjectStore({
    projectsDir: config.projectsDir,
    clock,
    logger,
    defaults: { distillEvery: config.DISTILL_EVERY },
    pages: graph.pages,
    onForgotten: (slug) => retrieval.purge(slug),
  });
  // hand edits: the index follows, links follow renamed or deleted pages, _index.md is regenerated, inbox files are ingested
  const reflectionPages = new FileReflectionPages({ projectsDir: config.projectsDir, dataDir: config.dataDir, pages: graph, clock, logger: logger.child({ component: 'reflection' }) });
  // text arriving without a person's message (an event, a reminder, an inbox item, a hand-written line) gets the lane's word too
  const prechecks = precheckSettings(config, embedder, () => mcp.status());
  // without a local lane, the built-in judge by meaning reads what the rules let pass
  // one sentence encoder (in node_modules, loaded at its first use) for the judge and "why?" by question
  const sentences = new UniversalSentenceEncoder(logger.child({ component: 'sentences' }));
  const meaning = memoryModel ? null : new MeaningJudge(sentences);
  const texts = textPrecheck(memoryModel, prechecks, () => settings.chat.locality, meaning);
  const hand = new HandLabels({ projectsDir: config.projectsDir, ledgerPath: dataFiles(config.dataDir).handLines, precheck: texts, logger: logger.child({ component: 'privacy' }) });
  const ingest = new IngestService({
    projectsDir: config.projectsDir,
    graph,
    recall: retrieval.recall,
    memoryModel,
    precheck: texts,
    clock,
    logger: logger.child({ component: 'inbox' }),
    candidates: (project) => fileCandidateStore(config.dataDir, project),
    lastReflection: (project) => reflectionPages.lastReflection(project),
    batchDeadlineMs: config.DISTILL_DEADLINE_MS,
  });
  // One run per burst; an archive append (log/) is only indexed (no reconcile, no inbox scan), nor are pages Charlie wrote.
  const stopWatching = config.WATCH_PROJECTS
    ? retrieval.watch(
        async ({ project, paths, rescan }) => {
          if (graph.filesChanged(project, paths, rescan)) await graph.reconcile(project, rescan ? undefined : paths.filter((p) => p.startsWith('notes/')).map((p) => p.slice('notes/'.length)));
          if (rescan || paths.some((p) => p.startsWith('inbox/'))) await ingest.scan(project);
        },
        (trusted) => graph.watching(trusted),
        async ({ project, paths, rescan }) => (rescan || paths.some((p) => p.startsWith('notes/') || HAND_LAYER_FILES.includes(p))) && hand.scan(project, rescan ? undefined : paths),
      )
    : async () => {};
  if (config.WATCH_PROJECTS) void graph.primeAll();
  void ingest.scanAll();
  const reflection = new Reflection({
    pages: reflectionPages,
    model: memoryModel,
    clock,
    logger: logger.child({ component: 'reflection' }),
    settings: { quietMinutes: config.REFLECT_QUIET_MINUTES, intervalHours: config.REFLECT_INTERVAL_HOURS, maxPages: config.REFLECT_MAX_PAGES, deadlineMs: config.REFLECT_DEADLINE_MS },
  });
  // MCP tool servers from data/mcp.json (MCP_CONFIG): nothing starts until a turn asks for one
  const mcp = createMcpSource(config, logger.child({ component: 'mcp' }), clock);
  for (const problem of mcp.problems) notices.push(problem);
  // time: jobs in data/schedule.db; the front doors add themselves to the outbox when they start
  const jobs = new SqliteJobStore(dataFiles(config.dataDir).schedule);
  const outbox = new OutboxRouter();
  const scheduler = new Scheduler(jobs, clock, logger.child({ component: 'scheduler' }), {
    concurrency: config.SCHEDULER_CONCURRENCY,
    // a poll is a few calendar requests, each under CALENDAR_TIMEOUT_MS; reflection has its own deadline inside
    deadlines: { 'calendar-poll': 3 * config.deadlines.calendar + 30_000, reflection: config.REFLECT_DEADLINE_MS + 60_000 },
  });
  const reminders = new ReminderDesk({ jobs, settings: jobs, outbox, clock, defaultZone: config.TZ, newId: () => randomBytes(4).toString('hex'), precheck: texts });
  reminders.attach(scheduler);
  const calendar = new CalendarDesk({
    jobs,
    connector: new CalendarConnectorImpl({
      clock,
      secrets: (handle) => config.CALENDAR_SECRETS[handle] ?? null,
      deadlineMs: config.deadlines.calendar,
      logger: logger.child({ component: 'calendar' }),
    }),
    records: calendarRecords(store, graph, privateStore.records),
    clock,
    zoneOf: (owner) => reminders.zoneOf(owner),
    logger: logger.child({ component: 'calendar' }),
    newId: () => randomBytes(4).toString('hex'),
    pollMinutes: config.CALENDAR_POLL_MINUTES,
    localityOf: (url) => (urlIsLocal(url, config.CALENDAR_LOCALITY) ? 'local' : 'hosted'),
    precheck: texts,
  });
  calendar.attach(scheduler);
  // DM commitments are followed up in the DM, their answers kept in private.db like the DM
  const commitments = bothBooks(
    projectCommitments(store, graph),
    privateCommitments(privateStore.records, () => privateStore.records.ownersWithDueCommitments(), clock),
  );
  const followUps = new FollowUps({ jobs, book: commitments, outbox, clock, logger: logger.child({ component: 'follow-ups' }), zone: config.TZ, hour: config.FOLLOW_UP_HOUR });
  followUps.attach(scheduler, reminders);
  // Sync (docs/sync.md): reflection and the follow-up scan run only on the SYNC_BACKGROUND=true device; the jobs in this
  // device's schedule.db (reminders, briefs, calendar polls) are its own, and it distils only what it archived (distillLedger).
  const sync = config.SYNC_REMOTE ? createSync(config, () => clock.now()) : null;
  const householdJobs = !sync || config.SYNC_BACKGROUND;
  if (!householdJobs) scheduler.handle('follow-up-scan', async () => {});
  const brief = new MorningBrief({ jobs, desk: reminders, calendar, book: commitments, outbox, clock, keep: (place, said) => assistant.conversation.keep(place, said) });
  brief.attach(scheduler);
  let stopTicker = () => {};
  let ticking = false;
  const startTime = () => {
    if (!config.SCHEDULER_ENABLED || ticking) return;
    ticking = true;
    stopTicker = startTicker(scheduler, logger.child({ component: 'scheduler' }));
  };
  // a front door that opens delivers at once what waited for one (a reminder missed while Charlie was down)
  outbox.whenOpen(() => {
    if (ticking) void scheduler.wake().catch((err: unknown) => logger.warn({ err }, 'scheduler wake failed'));
  });
  // machines over SSH: secrets in the per-person vault, host keys pinned in data/known_hosts
  const { vault, desk: machines } = buildMachines(config, graph, clock);
  const settings = new LiveSettings({ config, chat: chatModel.model, vault, logger, embedderFallback: fallbackReason ?? null });
  const model = settings.chat;
  const assistant = new Assistant({
    vault,
    ...(sync ? { distillLedger: createDistillLedger(config) } : {}),
    ...(machines ? { machines } : {}),
    reminders,
    calendar,
    reflection,
    toolSource: { source: mcp, maxDefinitions: config.MCP_MAX_TOOL_DEFINITIONS },
    model,
    memoryModel,
    store,
    privateStore,
    recall: retrieval.recall,
    graph,
    candidates: (project) => fileCandidateStore(config.dataDir, project),
    lastReflection: (project) => reflectionPages.lastReflection(project),
    privateRecords: privateStore.records,
    privateRecall: privateStore.recall(embedder, clock),
    usage,
    writeRequests: new FileWriteRequestStore(dataFiles(config.dataDir).writeRequests),
    storedEverywhere: (limit) => storedEverywhere(store, privateStore, limit),
    clock,
    logger,
    settings: assistantSettings(config, TEXT_BUDGET_CHARS),
    consent: { mode: config.CONSENT_MODE, ledger: privateStore.consents, timeoutMs: config.CONSENT_TIMEOUT_MS },
    precheck: prechecks,
    meaning,
    // "why?" by question ranks by meaning too, with the same sentence encoder (loaded at its first use)
    whyEmbedder: sentences,
  });
  // /machines (terminal and Discord): what memory knows of each machine, with the asker's credential badges
  const machineBook = machines ? buildMachineBook(machines, store, (place, path, by) => assistant.memory.forgetNote(place, path, by)) : undefined;
  void hand.scanAll();
  if (meaning && texts.applies()) void meaning.warm().catch(() => undefined);
  attachBackups(scheduler, jobs, backupSettings(config, clock, logger.child({ component: 'backup' })));
  // sync is a job of the scheduler too (SYNC_EVERY_MINUTES), kept only while this device is set up
  const syncing = attachSyncing(scheduler, jobs, {
    sync: sync?.isSetUp() === true ? sync : null,
    everyMinutes: config.SYNC_EVERY_MINUTES,
    logger: logger.child({ component: 'sync' }),
    tz: config.TZ,
    clock,
    // the watcher re-indexes what a sync wrote; without it, the changed pages are re-indexed here
    ...(config.WATCH_PROJECTS
      ? {}
      : { after: (changed: readonly string[]) => reindexChanged(changed, { reconcile: (p, c) => graph.reconcile(p, c), changed: (p, paths) => retrieval.changed(p, paths) }) }),
  });
  // idle projects' search data is let go by a job of the scheduler too (every device: the index is its own)
  scheduler.handle('index-sweep', async () => void retrieval.letGoIdle());
  keepInternalJob(jobs, { id: 'internal-index-sweep', kind: 'index-sweep', cron: '*/2 * * * *', tz: config.TZ }, true, clock);
  // reflection is a job of the scheduler (every minute; Reflection decides which projects are due); reports go where a front door said
  let reportTo: ((report: ReflectionReport) => Promise<void>) | null = null;
  scheduler.handle('reflection', async () => {
    const deliver = reportTo;
    if (!deliver) return;
    for (const r of await reflection.tick()) await deliver(r).catch((err: unknown) => logger.warn({ project: r.project, err }, 'reflection report not delivered'));
  });
  keepInternalJob(jobs, { id: 'internal-reflection', kind: 'reflection', cron: '* * * * *', tz: config.TZ }, config.REFLECT_ENABLED && memoryModel !== null && householdJobs, clock);
  /** Reflects between turns on the projects that are due (REFLECT_*) once a front door started it; `deliver` shows each report. */
  const startReflecting = (deliver: (report: ReflectionReport) => Promise<void>) => {
    reportTo = deliver;
  };
  // what the stores and adapters created while starting (the index, logs, the web token) is private too
  tightenFolder(config.dataDir);
  const close = async () => {
    stopTicker();
    reportTo = null;
    syncing.stop();
    await syncing.idle();
    await assistant.idle();
    await stopWatching();
    await retrieval.close();
    usage.close();
    privateStore.close();
    jobs.close();
    await mcp.close();
    await chatModel.close();
  };
  return {
    assistant,
    model,
    settings,
    store,
    privateStore,
    ingest,
    notices,
    startReflecting,
    time: {
      reminders,
      calendar,
      brief,
      outbox,
      start: startTime,
      tick: () => scheduler.tick(),
      wake: () => scheduler.wake(),
      shown: { was: (key: string) => jobs.wasDelivered(key), mark: (key: string) => jobs.delivered(key, clock.now()) },
    },
    close,
    mcp,
    machines: machineBook,
    vault,
    sync: syncing.forDoors(sync),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { project: { type: 'string', short: 'p' } }, allowPositionals: true });
  const loaded = loadConfig();
  // a chat server chosen in the web app has its API key in the vault (DATA_DIR/settings.json names only its handle)
  const config = await withSettingsKey(loaded, new AgeVault(dataFiles(loaded.dataDir).vault));
  makeFolder('DATA_DIR', config.dataDir);
  // one Charlie per data folder; a restore that was killed halfway leaves its staging copy beside it
  const lock = lockDataFolder(config.dataDir);
  await removeStaleRestores(config.dataDir);
  const terminal = !config.DISCORD_TOKEN;
  // the terminal chat loads pino once its prompt is shown (src/app/log-after-start.ts); Discord logs to stderr at once
  const openLog = async () => (await import('./logging.js')).createLogger(config.LOG_LEVEL, terminal ? dataFiles(config.dataDir).log : undefined);
  const log = terminal ? loggerAfterStart(openLog) : { logger: await openLog(), start: async () => {} };
  const logger = log.logger;
  const { choice, chat, modelStatus } = await chooseChatModel(config, logger, terminal);
  const app = await buildApp(config, logger, terminal ? echoDownload : undefined, chat);
  const modelLines = modelStartLines(config, choice.provider !== 'embedded');
  const stt = createSpeechToText(config, logger.child({ component: 'stt' }));
  const tts = createTextToSpeech(config, logger.child({ component: 'tts' }));
  const web = await startWebApp(config, app, logger, { stt, tts, makeTts: (c) => createTextToSpeech(c, logger.child({ component: 'tts' })) });
  const closeAll = async () => {
    await web?.close();
    await app.close();
    await log.start().catch(() => {});
  };
  if (!terminal) {
    await startDiscordDoor({ config, app, logger, web, speech: { stt, tts }, model: { describe: chat.describe, status: modelStatus, lines: modelLines }, closeAll });
    return;
  }
  process.stdout.write(`model: ${chat.describe}\n`);
  for (const line of modelLines) process.stdout.write(`· ${line}\n`);
  for (const n of app.notices) process.stdout.write(`! ${n}\n`);
  // the terminal has no channel: reports go to the log (data/logs/charlie.log)
  app.startReflecting(async () => {});
  const terminalOutbox = new TerminalOutbox(app.time.shown);
  app.time.outbox.add(isTerminalPlace, terminalOutbox);
  await runTerminal({
    time: { desk: app.time.reminders, outbox: terminalOutbox, calendar: app.time.calendar, brief: app.time.brief },
    assistant: app.assistant,
    projectName: values.project ?? 'general',
    assistantName: config.ASSISTANT_NAME,
    input: process.stdin,
    output: process.stdout,
    interactive: process.stdin.isTTY && process.stdout.isTTY,
    color: process.stdout.isTTY,
    modelStatus: Promise.resolve(modelStatus),
    // what waited while Charlie was down (a due reflection, a missed reminder: SQLite commits, disk syncs) starts once the prompt is up
    shown: () => {
      app.time.start();
      void log.start().catch((error: unknown) => process.stderr.write(`charlie: no log (${error instanceof Error ? error.message : String(error)}); going on without it\n`));
    },
    userName: ownerName(config.OWNER_NAME),
    toolServers: () => mcpLines(app.mcp),
    services: describeDestinations(configuredDestinations(config, { calendars: app.time.calendar.servers(), toolServers: app.mcp.status() })),
    ingest: app.ingest,
    ...(app.machines ? { machines: app.machines } : {}),
    sync: app.sync,
  });
  await closeAll();
  lock.release();
}

/** Starts Charlie (src/cli.ts calls this); a failure ends the process with a one-line message. */
export function runMain(): void {
  main().catch((error: unknown) => {
    const message = error instanceof CharlieError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`charlie: ${message}\n`);
    process.exit(1);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runMain();

/** The newest `limit` entries of every project's archive and the DMs labelled sensitive (for text whose place is not known). */
async function storedEverywhere(store: FileProjectStore, privateStore: SqlitePrivateStore, limit: number): Promise<LogEntry[]> {
  const out: LogEntry[] = privateStore.sensitiveEverywhere(limit);
  for (const p of await store.listProjects()) out.push(...(await store.recentLog(p.slug, limit)));
  return out;
}
