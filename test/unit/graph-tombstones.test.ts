import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fingerprint, keysOf } from '../../src/core/inspector/tombstones.js';
import { formatTombstone, graphTombstoneCheck } from '../../src/memory/tombstones.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("the knowledge graph's tombstone check", () => {
  it('refuses a forgotten page (by title or alias) and a forgotten fact, until the line is deleted', () => {
    const root = mkdtempSync(join(tmpdir(), 'charlie-graph-tomb-'));
    dirs.push(root);
    mkdirSync(join(root, 'home'));
    const when = '2026-11-30T12:00:00.000Z';
    const lines = [
      formatTombstone({ kind: 'note', description: 'note People/Sarah-Chen.md', keys: keysOf({ title: 'Sarah Chen', aliases: ['Sarah'] }), when, by: 'Ann' }),
      formatTombstone({ kind: 'entry', description: 'entry 2 of People/Bob.md', keys: [fingerprint('Bob has a badge number 7781.')], when, by: 'Ann' }),
    ];
    writeFileSync(join(root, 'home', 'forgotten.md'), `# Forgotten\n\n${lines.join('\n')}\n`);
    const isForgotten = graphTombstoneCheck(root);
    expect(isForgotten({ kind: 'page', project: 'home', text: 'sarah-chen' })).toBe(true);
    expect(isForgotten({ kind: 'page', project: 'home', text: 'Sarah' })).toBe(true);
    expect(isForgotten({ kind: 'page', project: 'home', text: 'Bob' })).toBe(false);
    expect(isForgotten({ kind: 'fact', project: 'home', text: 'bob has a badge number 7781' })).toBe(true);
    expect(isForgotten({ kind: 'fact', project: 'elsewhere', text: 'Bob has a badge number 7781.' })).toBe(false);
    writeFileSync(join(root, 'home', 'forgotten.md'), '# Forgotten\n');
    expect(isForgotten({ kind: 'page', project: 'home', text: 'Sarah Chen' })).toBe(false);
  });
});
