import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import { connectBounded } from '../../src/memory/index/lance-connect.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('connectBounded', () => {
  it('uses its bounded session: the caches fill as versions are written and read, and stay within the bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charlie-lance-'));
    dirs.push(dir);
    const metadata = 64 * 1024;
    const { db, session } = await connectBounded(lancedb, dir, { index: 1024 * 1024, metadata });
    const table = await db.createTable('t', [{ id: 0, text: 'first', vector: [0.1, 0.2, 0.3, 0.4] }]);
    // one version a write, as an archive append each turn makes
    for (let i = 1; i <= 60; i++) {
      await table.add([{ id: i, text: `row ${i}`, vector: [i, 0.2, 0.3, 0.4] }]);
      await table.query().where(`id = ${i}`).toArray();
    }
    // a session that is not the connection's (as with connect(uri, {}, session)) stays empty
    expect(session.approxNumItems()).toBeGreaterThan(0);
    expect(Number(session.sizeBytes())).toBeGreaterThan(0);
    expect(Number(session.sizeBytes())).toBeLessThanOrEqual(metadata + 1024 * 1024);
    table.close();
    db.close();
  });
});
