/**
 * The composition root: the only place adapters are constructed. Reads the config once,
 * builds the adapters, hands them to the core, and starts a front door — the Discord bot
 * when DISCORD_TOKEN is set, otherwise the terminal chat.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { userInfo } from 'node:os';
import { pathToFileURL } from 'node:url';
import { loadConfig, type Config } from './config.js';
import { Assistant } from './core/assistant.js';
import { CharlieError } from './core/errors.js';
import { asLocalModel, systemClock, type Logger } from './core/ports.js';
import { chatModelOptions } from './llm/chat-model-config.js';
import { OpenAIChatModel } from './llm/openai-chat.js';
import { probeModelServer } from './llm/probe.js';
import { createLogger } from './logging.js';
import { FileProjectStore } from './memory/store/project-store.js';
import { runTerminal } from './terminal/chat.js';

export async function buildAssistant(config: Config, logger: Logger) {
  const clock = systemClock;
  const model = new OpenAIChatModel(chatModelOptions(config, logger.child({ component: 'llm' })));
  const memoryModel = asLocalModel(model);
  if (!memoryModel) logger.warn({ baseUrl: config.LLM_BASE_URL }, 'the model is hosted: distillation is off (set LLM_LOCALITY=local if this server is yours)');
  const store = new FileProjectStore({ projectsDir: config.projectsDir, clock, logger, defaults: { distillEvery: config.DISTILL_EVERY } });
  const assistant = new Assistant({
    model,
    memoryModel,
    store,
    clock,
    logger,
    settings: {
      assistantName: config.ASSISTANT_NAME,
      limits: { maxSteps: config.TURN_MAX_STEPS, maxToolCalls: config.TURN_MAX_TOOL_CALLS, deadlineMs: config.TURN_DEADLINE_MS },
      historyMessages: config.HISTORY_MESSAGES,
      distillEvery: config.DISTILL_EVERY,
      temperature: config.LLM_TEMPERATURE,
      maxMessageChars: 24_000,
    },
  });
  return { assistant, model, store, close: async () => {} };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { project: { type: 'string', short: 'p' } }, allowPositionals: true });
  const config = loadConfig();
  const terminal = !config.DISCORD_TOKEN;
  const logger = createLogger(config.LOG_LEVEL, terminal ? join(config.dataDir, 'logs', 'charlie.log') : undefined);
  const app = await buildAssistant(config, logger);
  if (!terminal) {
    process.stderr.write('Discord front door is not built yet (issue 4); unset DISCORD_TOKEN for the terminal chat.\n');
    process.exitCode = 1;
    return;
  }
  const probe = probeModelServer(config.LLM_BASE_URL, config.LLM_API_KEY, 3000).then((r) => (r.ok ? null : r.message));
  await runTerminal({
    assistant: app.assistant,
    projectName: values.project ?? 'general',
    assistantName: config.ASSISTANT_NAME,
    input: process.stdin,
    output: process.stdout,
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    color: Boolean(process.stdout.isTTY),
    modelStatus: probe,
    userName: safeUserName(),
  });
  await app.close();
}

function safeUserName(): string {
  try {
    return userInfo().username || 'you';
  } catch {
    return 'you';
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    const message = error instanceof CharlieError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`charlie: ${message}\n`);
    process.exit(1);
  });
}
