import { describe, expect, it } from 'vitest';
import { withoutHostPaths } from '../../src/core/privacy/public-text.js';
import { scrubForLog } from '../../src/logging.js';

describe('no absolute host paths reach a model or a status line', () => {
  it.each([
    ["ENOENT: no such file or directory, open '/home/ann/charlie/projects/general/notes/People/Bob.md'", "ENOENT: no such file or directory, open 'notes/People/Bob.md'"],
    ['EACCES: permission denied, mkdir /srv/data/charlie/projects/general/log', 'EACCES: permission denied, mkdir log'],
    ['cannot read C:\\Users\\ann\\charlie\\projects\\general\\decisions.md', 'cannot read decisions.md'],
    ['lock held by /var/lib/other/file.lock', 'lock held by file.lock'],
    ['see notes/People/Bob.md and https://example.com/a/b', 'see notes/People/Bob.md and https://example.com/a/b'],
  ])('%s', (input, expected) => {
    expect(withoutHostPaths(input, 'general')).toBe(expected);
  });
});

describe('log values', () => {
  it('hide message text above debug and remove credentials always', () => {
    const value = { text: 'hello Bob', count: 3, err: new Error('failed at https://u:pw123456@host/v1'), nested: { query: 'where is Bob' } };
    const logged = scrubForLog(value, 30) as { err: { stack?: string } };
    expect(logged).toMatchObject({
      text: '[9 characters; shown at debug]',
      count: 3,
      err: { type: 'Error', message: 'failed at https://[secret removed]@host/v1' },
      nested: { query: '[12 characters; shown at debug]' },
    });
    // an error keeps its stack at every level (where it failed matters most when it fails), without the credentials
    expect(logged.err.stack).toContain('public-text.test.ts');
    expect(logged.err.stack).not.toContain('pw123456');
    expect(scrubForLog(value, 20)).toMatchObject({ text: 'hello Bob', nested: { query: 'where is Bob' } });
  });
});
