/** The learned end-of-turn model from the configuration: only when the setting allows it and its file is there. */
import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { Logger, TurnModel } from '../../core/ports/index.js';
import { locateTurnModel, SmartTurnModel } from './smart-turn.js';

export type TurnModelConfig = Pick<Config, 'VOICE_TURN_DETECTION' | 'VOICE_TURN_MODEL' | 'dataDir'>;

export function turnModelPath(config: Pick<Config, 'VOICE_TURN_MODEL' | 'dataDir'>): string {
  return config.VOICE_TURN_MODEL ?? join(config.dataDir, 'models', 'smart-turn', 'smart-turn-v3.0.onnx');
}

export function createTurnModel(config: TurnModelConfig, logger: Logger): TurnModel | null {
  if (config.VOICE_TURN_DETECTION === 'off' || config.VOICE_TURN_DETECTION === 'rules') return null;
  const path = turnModelPath(config);
  const where = locateTurnModel(path);
  if (!where.present) {
    if (config.VOICE_TURN_DETECTION === 'model') logger.warn({ path }, where.missing);
    else logger.debug({ path }, 'no end-of-turn model file: the text rules decide');
    return null;
  }
  logger.info({ path }, 'end of turn: learned model (Smart Turn) behind the text rules');
  return new SmartTurnModel(path);
}
