import { describe, expect, it } from 'vitest';
import { oneLine, titleFromPath } from '../../src/util/one-line.js';
import { errorWithCause } from '../../src/util/error-text.js';

describe('oneLine', () => {
  it('folds line breaks and runs of white space into single spaces, trimmed', () => {
    expect(oneLine('  Sarah\r\n- [[evil]]\n\n  note\t ')).toBe('Sarah - [[evil]] note');
  });
});

describe('titleFromPath', () => {
  it('takes the file name without .md, dashes as spaces', () => {
    expect(titleFromPath('People/Sarah-Chen.md')).toBe('Sarah Chen');
    expect(titleFromPath('Lisbon.MD')).toBe('Lisbon');
  });
});

describe('errorWithCause', () => {
  it('adds the cause only when the message does not already say it', () => {
    expect(errorWithCause(new Error('fetch failed', { cause: new Error('ECONNREFUSED') }))).toBe('fetch failed: ECONNREFUSED');
    expect(errorWithCause(new Error('spawn failed: ENOENT', { cause: new Error('ENOENT') }))).toBe('spawn failed: ENOENT');
  });
});
