/**
 * Every part the doctor checks, in the order it reports them. A new part (the web app, the
 * embedded model, a separately configured memory lane) is one more entry here.
 */
import type { Config } from '../config.js';
import type { Command } from '../discord/command.js';
import type { Part } from './check.js';
import { configPart, type ConfigOutcome } from './config-check.js';
import { discordPart } from './discord-checks.js';
import { embeddedPart } from './embedded-checks.js';
import { embeddingsPart } from './embeddings-check.js';
import { chatLane, memoryLane } from './lane.js';
import { memoryLanePart, modelLanePart } from './model-lane-part.js';
import { speechPart } from './speech-checks.js';
import { storagePart } from './storage-checks.js';
import { webPart } from './web-check.js';
import { privacyPart } from './destinations.js';
import { mcpPart } from './mcp-checks.js';
import { syncPart } from './sync-checks.js';

export interface DoctorDeps {
  cwd: string;
  loadCommands: () => Promise<Command[]>;
}

export function doctorParts(outcome: ConfigOutcome, deps: DoctorDeps): Part[] {
  const parts = [configPart(outcome, deps.cwd)];
  if (!outcome.ok) return parts;
  const config: Config = outcome.config;
  const chat = chatLane(config);
  const embedded = embeddedPart(config);
  const embeddedOnly = config.LLM_PROVIDER === 'embedded';
  if (embedded !== null && !embeddedOnly) chat.fallback = 'npm start answers with the embedded model instead (LLM_PROVIDER=auto)';
  if (embedded === null && config.LLM_PROVIDER === 'auto') chat.otherWay = 'or let Charlie run a model itself (docs/models.md: "The embedded model (no server needed)")';
  const server = embeddedOnly ? [] : [modelLanePart(chat, config)];
  // With LLM_PROVIDER=auto the server wins when it answers; the memory lane follows the chat model.
  return [
    ...parts,
    ...server,
    ...(embedded === null ? [] : [embedded]),
    memoryLanePart(chat, memoryLane(config), config, embeddedOnly),
    embeddingsPart(config),
    speechPart(config),
    discordPart(config, deps.loadCommands),
    storagePart(config),
    ...[syncPart(config)].filter((p) => p !== null),
    webPart(config),
    mcpPart(config),
    privacyPart(config),
  ];
}
