/**
 * The learned end-of-turn adapter up to the point where weights are needed: a missing file
 * names where it belongs; a broken file is refused by the real ONNX Runtime with a message;
 * the real feature extractor makes Smart Turn's [1, 80, 800] input from the last 8 s,
 * left-padded; and a tiny hand-written ONNX model with the same signature runs through the
 * real session code. The real weights (pipecat-ai/smart-turn-v3, not installable from npm)
 * are tested only when VOICE_TURN_MODEL_TEST points at them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTurnModel, turnModelPath } from '../../../src/speech/turn/create.js';
import { locateTurnModel, prepareAudio, SmartTurnModel, TurnModelError } from '../../../src/speech/turn/smart-turn.js';
import { silentLogger } from '../../../src/core/ports/index.js';
import type { TurnEvidence } from '../../../src/core/ports/index.js';
import { meanSigmoidModel } from '../../support/tiny-onnx.js';
import { tempDirs } from '../../support/temp-dir.js';

const tempDir = tempDirs('charlie-turn-');

const tone = (seconds: number, amplitude = 0.3) => {
  const pcm = new Int16Array(Math.round(seconds * 16_000));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * 220 * i) / 16_000));
  return pcm;
};
const evidence = (pcm: Int16Array): TurnEvidence => ({ transcript: 'x', pauseMs: 400, speechMs: (pcm.length / 16_000) * 1000, endFallDb: 0, pcm });

describe('Smart Turn adapter (ONNX)', () => {
  it('a missing file: a clear reason naming the path and where to get it', async () => {
    const dir = tempDir();
    const path = join(dir, 'smart-turn-v3.0.onnx');
    expect(locateTurnModel(path)).toEqual({ present: false, missing: expect.stringContaining(`not found at ${path}`) as string });
    expect(locateTurnModel(path).missing).toContain('huggingface.co/pipecat-ai/smart-turn-v3');
    await expect(new SmartTurnModel(path).probability(evidence(tone(1)))).rejects.toThrow(TurnModelError);
  });

  it('a file that is not an ONNX model is refused by ONNX Runtime, with what to check', async () => {
    const path = join(tempDir(), 'broken.onnx');
    writeFileSync(path, 'not a model');
    await expect(new SmartTurnModel(path).load()).rejects.toThrow(/could not be loaded — is it the Smart Turn v3 ONNX file\?/);
  });

  it('prepares the last 8 s, normalised and left-padded', () => {
    const short = prepareAudio(tone(1));
    expect(short).toHaveLength(128_000);
    expect(short.subarray(0, 112_000).every((v) => v === 0)).toBe(true);
    const tail = short.subarray(112_000);
    const rms = Math.sqrt(tail.reduce((a, v) => a + v * v, 0) / tail.length);
    expect(rms).toBeCloseTo(1, 2);
    const long = tone(10);
    long.fill(0, 0, 2 * 16_000); // the first 2 s are silent and fall outside the window
    expect(
      prepareAudio(long)
        .subarray(0, 100)
        .some((v) => Math.abs(v) > 0.1),
    ).toBe(true);
  });

  it('runs the real session code on a model with Smart Turn’s signature: [1, 80, 800] in, a probability out', async () => {
    const path = join(tempDir(), 'tiny-turn.onnx');
    writeFileSync(path, meanSigmoidModel());
    const model = new SmartTurnModel(path);
    expect(model.id).toBe('tiny-turn.onnx');
    const features = await model.features(tone(1.5));
    expect(features.dims).toEqual([1, 80, 800]);
    // padding (first frames) and speech (last frames) look different to the model
    const frame = (f: number) => Array.from({ length: 80 }, (_, b) => features.data[b * 800 + f]!);
    expect(Math.max(...frame(799 - 20))).toBeGreaterThan(Math.max(...frame(10)));
    const mean = features.data.reduce((a, v) => a + v, 0) / features.data.length;
    const p = await model.probability(evidence(tone(1.5)));
    expect(p).toBeCloseTo(1 / (1 + Math.exp(-mean)), 4);
  });

  it('createTurnModel: only for auto/model, only when the file is there; model mode warns with the path', () => {
    const dataDir = tempDir();
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (_o: object | string, msg?: string) => void warnings.push(msg ?? ''), child: () => logger };
    const base = { VOICE_TURN_MODEL: undefined, dataDir };
    expect(turnModelPath(base)).toBe(join(dataDir, 'models', 'smart-turn', 'smart-turn-v3.0.onnx'));
    expect(createTurnModel({ ...base, VOICE_TURN_DETECTION: 'auto' }, logger)).toBeNull();
    expect(warnings).toEqual([]);
    expect(createTurnModel({ ...base, VOICE_TURN_DETECTION: 'model' }, logger)).toBeNull();
    expect(warnings[0]).toContain(`not found at ${turnModelPath(base)}`);
    const path = join(dataDir, 'tiny.onnx');
    writeFileSync(path, meanSigmoidModel());
    for (const mode of ['off', 'rules'] as const) expect(createTurnModel({ VOICE_TURN_MODEL: path, dataDir, VOICE_TURN_DETECTION: mode }, logger)).toBeNull();
    expect(createTurnModel({ VOICE_TURN_MODEL: path, dataDir, VOICE_TURN_DETECTION: 'auto' }, logger)?.id).toBe('tiny.onnx');
  });

  const real = process.env.VOICE_TURN_MODEL_TEST;
  it.skipIf(!real)(`with the real weights (skipped: set VOICE_TURN_MODEL_TEST to the path of smart-turn-v3.0.onnx from huggingface.co/pipecat-ai/smart-turn-v3)`, async () => {
    const model = new SmartTurnModel(real!);
    const p = await model.probability(evidence(tone(2)));
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThanOrEqual(1);
  });
});
