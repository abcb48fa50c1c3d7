/**
 * Backups you own, at the real edge (files in temp folders, real SQLite): a backup taken while
 * 20 turns run concurrently restores into a fresh folder and reads whole; one taken once they
 * finish restores to the same pages, records, DM rows, usage rows and candidates, byte for byte;
 * an encrypted backup does not open without its key; a damaged one is refused before anything
 * is written; an export is a Markdown folder / Obsidian vault with no DM in it.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { BackupKeyError } from '../../src/backup/backup-crypto.js';
import { backupName, pruneBackups, writeBackup } from '../../src/backup/backup-file.js';
import { backupIfDue, backupTime } from '../../src/backup/backup-schedule.js';
import { exportProject } from '../../src/backup/export-project.js';
import { BackupError, restoreBackup } from '../../src/backup/restore-file.js';
import { readPage } from '../../src/memory/graph/page.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { fileCandidateStore } from '../../src/memory/records/candidate-store.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { openUsageStore } from '../../src/storage/usage-store.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { distillReply, fact, newEntity } from '../support/distill-reply.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function tree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) if (e.isFile()) out.set(relative(dir, join(e.parentPath, e.name)), await readFile(join(e.parentPath, e.name), 'utf8'));
  return out;
}

function rows(file: string): Record<string, unknown[]> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
    return Object.fromEntries(tables.map((t) => [t.name, db.prepare(`SELECT * FROM "${t.name}" ORDER BY rowid`).all()]));
  } finally {
    db.close();
  }
}

/** A running Charlie in a temp folder: real project store, wiki, private.db, usage.db and candidates. */
async function charlie() {
  const root = await mkdtemp(join(tmpdir(), 'charlie-backup-'));
  roots.push(root);
  const projectsDir = join(root, 'projects');
  const dataDir = join(root, 'data');
  await mkdir(dataDir, { recursive: true });
  const clock = new FixedClock(new Date('2026-11-20T09:00:00Z'));
  const store = new FileProjectStore({ projectsDir, clock, defaults: { distillEvery: 2 } });
  const graph = new Wiki({ projectsDir, clock, logger: silentLogger });
  const privateStore = new SqlitePrivateStore(join(dataDir, 'private.db'));
  const usage = openUsageStore(join(dataDir, 'usage.db'), silentLogger);
  const memoryModel = new ScriptedChatModel(() => ({
    text: JSON.stringify(
      distillReply({
        summary: 'Talk about Sarah and Zed.',
        entities: [newEntity('Sarah', 'People/Professional'), newEntity('Zed', 'People/Friends')],
        facts: [fact('Sarah', 'Works at Acme.', 1, 'identity'), fact('Zed', 'Has a new job.', 1, 'identity')],
      }),
    ),
  }));
  const { assistant } = makeAssistant({
    model: new ScriptedChatModel(() => ({ text: 'Noted.' })),
    memoryModel,
    store,
    privateStore,
    privateRecords: privateStore.records,
    usage,
    graph,
    clock,
    candidates: (p) => fileCandidateStore(dataDir, p),
    settings: { distillEvery: 2 },
  });
  await mkdir(join(dataDir, 'write-requests'), { recursive: true });
  await writeFile(join(dataDir, 'write-requests', 'kitchen.json'), '[]\n');
  // derived, never backed up
  await mkdir(join(dataDir, 'index'), { recursive: true });
  await writeFile(join(dataDir, 'index', 'vectors.lance'), 'derived');
  const close = () => {
    privateStore.close();
    usage.close();
  };
  return { root, projectsDir, dataDir, assistant, clock, close };
}

const places: Place[] = [
  { kind: 'project', origin: { name: 'kitchen', key: 'terminal:kitchen' } },
  { kind: 'project', origin: { name: 'garden', key: 'terminal:garden' } },
  { kind: 'private', userId: '1001', userName: 'Dana' },
];
const text = (i: number) => (i % 2 === 0 ? `remember that Sarah works at Acme (${String(i)})` : `apparently Zed got a new job somewhere (${String(i)})`);

async function turns(c: Awaited<ReturnType<typeof charlie>>, from: number, count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, k) => {
      const i = from + k;
      const place = places[i % places.length] as Place;
      return c.assistant.conversation.handle({
        place,
        speaker: place.kind === 'private' ? 'Dana' : 'Ann',
        text: text(i),
        source: `test:${String(i)}`,
        time: new Date(Date.parse('2026-11-20T09:00:00Z') + i * 60_000),
      });
    }),
  );
}

/** Runs `run` on a Charlie that has answered `first` turns and gone idle, closing it after. */
async function withCharlie(first: number, run: (c: Awaited<ReturnType<typeof charlie>>) => Promise<void>): Promise<void> {
  const c = await charlie();
  try {
    await turns(c, 0, first);
    await c.assistant.idle();
    await run(c);
  } finally {
    c.close();
  }
}

async function fresh() {
  const root = await mkdtemp(join(tmpdir(), 'charlie-restore-'));
  roots.push(root);
  return { projectsDir: join(root, 'projects'), dataDir: join(root, 'data') };
}

describe('npm run backup / restore', () => {
  it('backs up while 20 turns run, and restores every page, record, DM row and candidate identically', async () => {
    await withCharlie(4, async (c) => {
      // a backup taken while 20 turns (and the distillations they start) run
      const during = join(c.root, 'backups', backupName(new Date('2026-11-20T10:00:00Z'), false));
      const [manifest] = await Promise.all([writeBackup({ projectsDir: c.projectsDir, dataDir: c.dataDir, out: during, now: new Date('2026-11-20T10:00:00Z') }), turns(c, 4, 20)]);
      expect(manifest.files.some((f) => f.path === 'data/private.db')).toBe(true);
      expect(manifest.files.some((f) => f.path.startsWith('data/index/'))).toBe(false);
      const a = await fresh();
      const restoredDuring = await restoreBackup({ file: during, ...a });
      expect(restoredDuring.projects.sort()).toEqual(['garden', 'kitchen']);
      // whatever moment it caught, it reads whole: every page parses, the databases pass their check (restore ran it)
      for (const [path, content] of await tree(a.projectsDir)) {
        if (!/\/notes\/.*\.md$/.test(path) || path.includes('/.history/') || /\/_(?:index|log)\.md$/.test(path)) continue;
        const notesPath = path.split('/notes/')[1] ?? path;
        expect(readPage(content, notesPath, notesPath).ok).toBe(true);
      }
      await c.assistant.idle();

      // once quiet: a backup restores to exactly what Charlie has
      const after = join(c.root, 'backups', backupName(new Date('2026-11-20T11:00:00Z'), false));
      await writeBackup({ projectsDir: c.projectsDir, dataDir: c.dataDir, out: after, now: new Date('2026-11-20T11:00:00Z') });
      const b = await fresh();
      await restoreBackup({ file: after, ...b });
      const pages = await tree(c.projectsDir);
      expect([...pages.keys()].filter((p) => p.includes('/notes/People/')).length).toBeGreaterThan(1);
      expect(await tree(b.projectsDir)).toEqual(pages);
      const candidates = await tree(join(c.dataDir, 'candidates'));
      expect(candidates.size).toBeGreaterThan(0);
      expect(await tree(join(b.dataDir, 'candidates'))).toEqual(candidates);
      expect(await tree(join(b.dataDir, 'write-requests'))).toEqual(await tree(join(c.dataDir, 'write-requests')));
      const dm = rows(join(c.dataDir, 'private.db'));
      expect(Object.values(dm).flat().length).toBeGreaterThan(10);
      expect(rows(join(b.dataDir, 'private.db'))).toEqual(dm);
      expect(rows(join(b.dataDir, 'usage.db'))).toEqual(rows(join(c.dataDir, 'usage.db')));
      // the index is rebuilt, not restored
      expect(await tree(join(b.dataDir, 'index'))).toEqual(new Map());

      // keep the newest N
      expect(await pruneBackups(join(c.root, 'backups'), 1)).toEqual([during.split('/').pop()]);
    });
  }, 60_000);

  it('an encrypted backup does not open without its key; a damaged one or a full target folder is refused', async () => {
    await withCharlie(3, async (c) => {
      const now = new Date('2026-11-20T10:00:00Z');
      const withPass = join(c.root, 'pass.tar.gz.age');
      await writeBackup({ projectsDir: c.projectsDir, dataDir: c.dataDir, out: withPass, now, key: { passphrase: 'correct horse battery staple', scryptWorkFactor: 10 } });
      const bytes = await readFile(withPass);
      expect(bytes.subarray(0, 21).toString('latin1')).toBe('age-encryption.org/v1');
      expect(bytes.includes(Buffer.from('Works at Acme'))).toBe(false);
      await expect(restoreBackup({ file: withPass, ...(await fresh()) })).rejects.toBeInstanceOf(BackupKeyError);
      await expect(restoreBackup({ file: withPass, ...(await fresh()), unlock: { passphrase: 'wrong' } })).rejects.toBeInstanceOf(BackupKeyError);
      const ok = await fresh();
      await restoreBackup({ file: withPass, ...ok, unlock: { passphrase: 'correct horse battery staple' } });
      expect(await tree(ok.projectsDir)).toEqual(await tree(c.projectsDir));

      const identity = await generateIdentity();
      const recipient = await identityToRecipient(identity);
      const toKey = join(c.root, 'key.tar.gz.age');
      await writeBackup({ projectsDir: c.projectsDir, dataDir: c.dataDir, out: toKey, now, key: { recipient } });
      await expect(restoreBackup({ file: toKey, ...(await fresh()), unlock: { identity: await generateIdentity() } })).rejects.toBeInstanceOf(BackupKeyError);
      const withKey = await fresh();
      await restoreBackup({ file: toKey, ...withKey, unlock: { identity } });
      expect(rows(join(withKey.dataDir, 'private.db'))).toEqual(rows(join(c.dataDir, 'private.db')));

      // damaged: cut short, or one byte changed; nothing is written
      const plain = join(c.root, 'plain.tar.gz');
      await writeBackup({ projectsDir: c.projectsDir, dataDir: c.dataDir, out: plain, now });
      const whole = await readFile(plain);
      const cut = join(c.root, 'cut.tar.gz');
      await writeFile(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
      const target = await fresh();
      await expect(restoreBackup({ file: cut, ...target })).rejects.toBeInstanceOf(BackupError);
      expect(await tree(target.projectsDir)).toEqual(new Map());
      const altered = Buffer.from(whole);
      const at = Math.floor(altered.length / 2);
      altered[at] = (altered[at] ?? 0) ^ 0xff;
      const flipped = join(c.root, 'flipped.tar.gz');
      await writeFile(flipped, altered);
      await expect(restoreBackup({ file: flipped, ...target })).rejects.toBeInstanceOf(BackupError);
      expect(await tree(target.dataDir)).toEqual(new Map());
      // a restore never writes over a folder in use
      await expect(restoreBackup({ file: plain, projectsDir: c.projectsDir, dataDir: join(c.root, 'empty') })).rejects.toThrow(/is not empty/);
    });
  }, 60_000);
});

describe('npm run memory -- export', () => {
  it('writes a project as a Markdown folder and Obsidian vault, its links resolving from the root, and no DM in it', async () => {
    await withCharlie(6, async (c) => {
      const out = join(c.root, 'export');
      const r = await exportProject({ projectsDir: c.projectsDir, project: 'kitchen', out });
      const files = await tree(out);
      expect(r.files).toBe(files.size);
      expect(files.has('project.md')).toBe(true);
      expect(files.has('.obsidian/app.json')).toBe(true);
      expect([...files.keys()].some((p) => p.startsWith('People/'))).toBe(true);
      expect([...files.keys()].some((p) => p.startsWith('log/'))).toBe(true);
      expect([...files.keys()].filter((p) => p.startsWith('.history') || p.startsWith('inbox/'))).toEqual([]);
      for (const [, content] of files) {
        for (const m of content.matchAll(/\[\[([^\]|#]+)/g)) expect(files.has(`${m[1] ?? ''}.md`)).toBe(true);
        // Dana's DM (turns 2 and 5) is nowhere in it
        expect(content).not.toMatch(/\((?:2|5)\)/);
      }
      await expect(exportProject({ projectsDir: c.projectsDir, project: 'kitchen', out })).rejects.toThrow(/not empty/);
      await expect(exportProject({ projectsDir: c.projectsDir, project: 'nope', out: join(c.root, 'x') })).rejects.toThrow(/no project "nope"/);
    });
  }, 60_000);
});

describe('the scheduled backup', () => {
  it('writes one when the newest is older than the interval, and keeps the last N', async () => {
    const root = await mkdtemp(join(tmpdir(), 'charlie-sched-'));
    roots.push(root);
    const projectsDir = join(root, 'projects');
    await mkdir(join(projectsDir, 'kitchen'), { recursive: true });
    await writeFile(join(projectsDir, 'kitchen', 'project.md'), '---\nname: kitchen\n---\n');
    const clock = new FixedClock(new Date('2026-11-20T00:00:00Z'));
    const o = { everyHours: 24, keep: 2, dir: join(root, 'backups'), projectsDir, dataDir: join(root, 'data'), clock, logger: silentLogger };
    const written: (string | null)[] = [];
    for (const hours of [0, 5, 20, 10, 24, 24]) {
      clock.advance(hours * 3_600_000);
      written.push(await backupIfDue(o));
    }
    // due at 0 h, 25 h, 59 h and 83 h; not at 5 h (5 h after the last) or 35 h (10 h after)
    expect(written.map((w) => (w ? backupTime(w.split('/').pop() ?? '')?.toISOString() : null))).toEqual([
      '2026-11-20T00:00:00.000Z',
      null,
      '2026-11-21T01:00:00.000Z',
      null,
      '2026-11-22T11:00:00.000Z',
      '2026-11-23T11:00:00.000Z',
    ]);
    expect((await readdir(o.dir)).sort()).toEqual([backupName(new Date('2026-11-22T11:00:00Z'), false), backupName(new Date('2026-11-23T11:00:00Z'), false)]);
  });
});
