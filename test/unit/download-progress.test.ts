import { describe, expect, it } from 'vitest';
import { downloadProgress, type ModelDownloadStep } from '../../src/llm/transformers-runtime.js';
import { recordingLogger } from '../support/recording-logger.js';

describe('downloadProgress', () => {
  it("hands each 10 % step of the library's typed progress event to the echo, once per file, and logs it", () => {
    const steps: ModelDownloadStep[] = [];
    const lines: string[] = [];
    const callback = downloadProgress(recordingLogger(lines), 'downloading embedding model', { model: 'm' }, (s) => steps.push(s));
    callback({ status: 'initiate', name: 'm', file: 'onnx/model.onnx' });
    callback({ status: 'progress', name: 'm', file: 'onnx/model.onnx', progress: 3, loaded: 3, total: 100 });
    callback({ status: 'progress', name: 'm', file: 'onnx/model.onnx', progress: 7, loaded: 7, total: 100 });
    callback({ status: 'progress', name: 'm', file: 'onnx/model.onnx', progress: 42, loaded: 42, total: 100 });
    callback({ status: 'progress', name: 'm', file: 'tokenizer.json', progress: 100, loaded: 5, total: 5 });
    callback({ status: 'done', name: 'm', file: 'onnx/model.onnx' });
    expect(steps).toEqual([
      { label: 'downloading embedding model', file: 'onnx/model.onnx', percent: 0 },
      { label: 'downloading embedding model', file: 'onnx/model.onnx', percent: 40 },
      { label: 'downloading embedding model', file: 'tokenizer.json', percent: 100 },
    ]);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"percent":40');
  });
});
