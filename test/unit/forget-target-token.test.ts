import { describe, expect, it } from 'vitest';
import { parseTargetToken, targetToken, type ForgetTarget } from '../../src/core/inspector/tombstones.js';

describe('forget target tokens (terminal arguments, Discord autocomplete values)', () => {
  it('round-trips every kind, a typed record by its block id', () => {
    const targets: ForgetTarget[] = [
      { kind: 'note', path: 'People/Ann.md' },
      { kind: 'entry', path: 'People/Ann.md', entry: 2 },
      { kind: 'record', path: 'People/Ann.md', id: 'r-1a2b3c' },
      { kind: 'decision', index: 3 },
      { kind: 'quote', index: 1 },
    ];
    for (const t of targets) expect(parseTargetToken(targetToken(t))).toEqual(t);
    expect(parseTargetToken('record:^r-1a2b3c:People/Ann.md')).toEqual({ kind: 'record', path: 'People/Ann.md', id: 'r-1a2b3c' });
    expect(parseTargetToken('record:nope:People/Ann.md')?.kind).not.toBe('record');
  });
});
