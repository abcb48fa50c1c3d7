/**
 * The terminal's and Discord's chat model at start: the configured server when it answers, else
 * the embedded model (offered for download once, in an interactive terminal), else none (the
 * message says what to do). Part of the composition root.
 */
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../core/ports/index.js';
import { probeModelServer } from '../llm/probe.js';
import { buildChatModel, chooseProvider } from '../llm/provider.js';
import { downloadModel, remoteSize } from '../llm/embedded/download.js';
import { modelsDir } from '../llm/embedded/model-file.js';
import { offerModelDownload } from '../terminal/model-offer.js';

export async function chooseChatModel(config: Config, logger: Logger, terminal: boolean) {
  let choice = await chooseProvider(config, { probe: () => probeModelServer(config.LLM_BASE_URL, config.LLM_API_KEY, 3000) });
  if (terminal && choice.provider === 'none' && process.stdin.isTTY && process.stdout.isTTY) {
    const { file } = choice;
    const downloaded = await offerModelDownload({
      file,
      markerPath: join(modelsDir(config.dataDir), '.embedded-offer-asked'),
      input: process.stdin,
      output: process.stdout,
      size: () => (file.url ? remoteSize(file.url) : Promise.resolve(null)),
      download: (onProgress) => downloadModel(file, { onProgress }),
    });
    if (downloaded) choice = { provider: 'embedded', file };
  }
  const chat = buildChatModel(config, choice, logger.child({ component: 'llm' }));
  chat.warmUp();
  const modelStatus = choice.provider === 'none' ? choice.message : choice.provider === 'server' ? choice.status : null;
  return { choice, chat, modelStatus };
}
