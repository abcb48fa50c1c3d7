/**
 * Two Charlie devices, one memory, through the real engine: the system git to a bare repository
 * on a local path, the same over a local SSH server (root only), and a git-remote-gcrypt
 * encrypted one. Both sides edit the same page and the same day file, contradict each other, one
 * is killed with SIGKILL mid-sync, one is offline for a week — then both hold byte-identical
 * memory, every record is there, contradictions are in review, and the search index built on each
 * device from the synced pages answers alike.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { syncs } from '../../src/core/sync/merge-file.js';
import { formatLogEntry, logFileHeading } from '../../src/memory/archive-format.js';
import { GENERATED_FILES } from '../../src/memory/graph/generated.js';
import { renderFact } from '../../src/memory/markdown/lines.js';
import { readPage } from '../../src/memory/graph/page.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { createRecall } from '../../src/memory/recall.js';
import { reviewPairs } from '../../src/memory/records/review.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { reindexChanged } from '../../src/sync/create.js';
import { syncPart } from '../../src/doctor/sync-checks.js';
import { gcryptMissing, makeDevice, makeGpgKey, sshMissing, startSshd, syncChild, type Device } from '../support/sync-devices.js';
import { suiteTempDir } from '../support/temp-dir.js';

const PAGE = 'People/Sarah-Chen.md';
const FILE = `home/notes/${PAGE}`;
const fact = (text: string, said = '2026-06-20') => renderFact(PAGE, { text, said, source: 'manual' });
const page = (facts: string[]) => ['---', 'schema: 2', 'title: Sarah Chen', 'updated: 2026-06-20', '---', '', 'Leads design.', '', '## Facts', ...facts, ''].join('\n');
const entry = (day: string, hms: string, who: string, text: string) => formatLogEntry({ time: `${day}T${hms}Z`, speaker: who, role: 'user', source: 'terminal:1', text });

async function both(a: Device, b: Device): Promise<void> {
  await a.sync.syncNow();
  await b.sync.syncNow();
  await a.sync.syncNow();
}

function statementsOf(d: Device): string[] {
  const r = readPage(d.read(FILE), PAGE, PAGE);
  if (!r.ok) throw new Error(r.problem.message);
  return r.page.facts.map((f) => f.text);
}

function pairsOf(d: Device) {
  const r = readPage(d.read(FILE), PAGE, PAGE);
  if (!r.ok) throw new Error(r.problem.message);
  return reviewPairs([r.page]).map((p) => [p.old.statement, p.new.statement].sort());
}

async function searchIndex(d: Device, query: string): Promise<string[]> {
  const graph = new Wiki({ projectsDir: d.projectsDir, clock: systemClock, logger: silentLogger });
  const recall = createRecall({
    projectsDir: d.projectsDir,
    dataDir: d.dataDir,
    embedder: new HashingEmbedder(),
    usage: { record() {}, boosts: () => new Map() },
    logger: silentLogger,
    clock: systemClock,
  });
  try {
    await reindexChanged([...d.memory().keys()], { reconcile: (p, c) => graph.reconcile(p, c), changed: (p, paths) => recall.changed(p, paths) });
    return (await recall.recall.recall(query, { project: 'home' })).map((h) => `${h.page}:${h.text}`).sort();
  } finally {
    await recall.close();
  }
}

function scenario(label: string, remote: () => { url: string; env?: Record<string, string>; bare: string }) {
  // a sync is a few git (and ssh) processes: seconds each on a loaded 2-core machine
  describe(label, { timeout: 180_000 }, () => {
    const root = suiteTempDir(`sync-${label.replace(/\W+/g, '-')}-`);
    let a: Device;
    let b: Device;
    beforeAll(() => {
      const r = remote();
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', r.bare]);
      a = makeDevice(root, 'laptop', { SYNC_REMOTE: r.url, SYNC_BACKGROUND: 'false', ...r.env });
      b = makeDevice(root, 'server', { SYNC_REMOTE: r.url, SYNC_BACKGROUND: 'true', ...r.env });
    });

    it('a first device sets up and sends; the second gets the memory; derived files stay behind', async () => {
      a.write(FILE, page([fact('Prefers async updates over calls.')]));
      a.write('home/log/2026-06-20.md', logFileHeading('2026-06-20.md') + entry('2026-06-20', '08:00:00', 'Ann', 'good morning'));
      a.write('home/notes/_index.md', '# generated\n');
      a.write('home/review.md', '# generated\n');
      a.write('home/inbox/drop.md', 'to ingest\n');
      await a.sync.setup();
      await a.sync.syncNow();
      await b.sync.setup();
      await b.sync.syncNow();
      expect(b.read(FILE)).toBe(a.read(FILE));
      const carried = [...a.memory().keys()];
      expect(carried.sort()).toEqual(['home/log/2026-06-20.md', FILE]);
      // the exclude file and the core's rule agree
      for (const p of ['home/notes/_index.md', 'home/review.md', 'home/inbox/drop.md', ...carried]) expect(carried.includes(p)).toBe(syncs(p, GENERATED_FILES));
    });

    it('edits on both sides of one page and one day file, a record edited on both and a contradiction: nothing lost, review holds both', async () => {
      const base = fact('Prefers async updates over calls.');
      a.write(FILE, page([base.replace('async updates', 'written updates'), fact('Drinks tea.'), fact('Works at Acme.')]));
      b.write(FILE, page([base.replace('async updates', 'short calls'), fact('Has a dog called Rex.'), fact('Works at Globex.')]));
      a.append('home/log/2026-06-20.md', entry('2026-06-20', '09:00:00', 'Ann', 'laptop at nine'));
      b.append('home/log/2026-06-20.md', entry('2026-06-20', '08:30:00', 'Bob', 'server at half past eight'));
      await both(a, b);
      expect(a.memory()).toEqual(b.memory());
      const s = statementsOf(a).join('\n');
      for (const t of ['written updates', 'short calls', 'Drinks tea.', 'Has a dog called Rex.', 'Works at Acme.', 'Works at Globex.']) expect(s).toContain(t);
      expect(pairsOf(a)).toEqual(expect.arrayContaining([['Works at Acme.', 'Works at Globex.']]));
      expect(pairsOf(a)).toHaveLength(2);
      const day = a.read('home/log/2026-06-20.md');
      expect(day.indexOf('good morning')).toBeLessThan(day.indexOf('half past eight'));
      expect(day.indexOf('half past eight')).toBeLessThan(day.indexOf('laptop at nine'));
      expect(day).not.toMatch(/<<<<<<<|>>>>>>>/);
      const status = await b.sync.status();
      expect(status.devices.map((d) => d.name)).toEqual(['laptop', 'server']);
      expect(status.devices.filter((d) => d.background).map((d) => d.name)).toEqual(['server']);
      // the merge commit names its review pairs, so every device shows them
      expect((await a.sync.status()).review).toHaveLength(2);
      expect(status.review).toHaveLength(2);
    });

    it('doctor checks it: set up and synced is ok, a device not set up fails', async () => {
      const verdicts = async (d: Device) => {
        const part = syncPart(d.config);
        const out = [];
        for (const c of part?.checks ?? []) out.push((await c.run(new AbortController().signal)).status);
        return out;
      };
      expect(await verdicts(a)).toEqual(['ok', 'warn', 'ok']); // warn: the merge's pairs are in review
      expect(await verdicts(makeDevice(root, 'new-phone', { SYNC_REMOTE: a.env.SYNC_REMOTE ?? '' }))).toEqual(['fail', 'skip', 'ok']);
    });

    it('a sync killed with SIGKILL at any moment leaves both sides consistent, and the next sync finishes', async () => {
      let midSync = 0;
      for (let round = 0; round < 4; round++) {
        a.write(`home/notes/Topics/Round-${String(round)}.md`, page([fact(`Round ${String(round)} from the laptop.`)]));
        b.append('home/log/2026-06-20.md', entry('2026-06-20', `1${String(round)}:00:00`, 'Bob', `server round ${String(round)}`));
        await b.sync.syncNow();
        const child = syncChild(a);
        // kill at a different moment each round: as soon as it starts, then later
        await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
        await new Promise((r) => setTimeout(r, round * 120));
        // the sync may have finished (and the child exited) before the kill: then there is no exit left to wait for
        const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
        // the lock is taken when a sync starts and released when it ends: left behind, the kill hit a sync in progress
        if (existsSync(join(a.dataDir, 'sync', 'lock'))) midSync++;
      }
      expect(midSync).toBeGreaterThan(0);
      await both(a, b);
      await b.sync.syncNow();
      expect(a.memory()).toEqual(b.memory());
      for (let round = 0; round < 4; round++) {
        expect(b.read(`home/notes/Topics/Round-${String(round)}.md`)).toContain(`Round ${String(round)} from the laptop.`);
        expect(a.read('home/log/2026-06-20.md')).toContain(`server round ${String(round)}`);
      }
      const stray = readdirSync(join(a.projectsDir, 'home', 'notes', 'Topics')).filter((f) => !f.endsWith('.md'));
      expect(stray).toEqual([]);
    });

    it('an update of the projects folder cut off halfway (the apply journal) is finished by the next sync', async () => {
      b.write('home/notes/Topics/Journal-1.md', page([fact('First file of the update.')]));
      b.write('home/notes/Topics/Journal-2.md', page([fact('Second file of the update.')]));
      await b.sync.syncNow();
      const git = (...args: string[]) =>
        execFileSync('git', ['--git-dir', join(a.dataDir, 'sync', 'repo.git'), ...args], {
          cwd: a.projectsDir,
          encoding: 'utf8',
          env: { ...process.env, ...(a.env.SYNC_SSH_COMMAND ? { GIT_SSH_COMMAND: a.env.SYNC_SSH_COMMAND } : {}) },
        }).trim();
      git('fetch', '-q', 'origin');
      const from = git('rev-parse', 'HEAD');
      const to = git('rev-parse', 'refs/remotes/origin/main');
      writeFileSync(join(a.dataDir, 'sync', 'apply.json'), JSON.stringify({ from, to }));
      // as a kill after the first file was written would leave it
      a.write('home/notes/Topics/Journal-1.md', b.read('home/notes/Topics/Journal-1.md'));
      writeFileSync(join(a.dataDir, 'sync', 'lock'), '999999');
      const report = await a.sync.syncNow();
      expect(report.changed).toEqual(expect.arrayContaining(['home/notes/Topics/Journal-2.md']));
      expect(a.memory()).toEqual(b.memory());
      expect(existsSync(join(a.dataDir, 'sync', 'apply.json'))).toBe(false);
    });

    it('a device offline for a week syncs when it is back', async () => {
      for (let d = 1; d <= 7; d++) {
        const day = `2026-06-2${String(d)}`;
        b.write(`home/log/${day}.md`, logFileHeading(`${day}.md`) + entry(day, '12:00:00', 'Bob', `server day ${String(d)}`));
        a.append(`home/log/${day}.md`, (d === 1 ? '' : '') + entry(day, '18:00:00', 'Ann', `laptop day ${String(d)}`));
        await b.sync.syncNow();
      }
      a.append(FILE, `${fact('Back from the trip.')}\n`);
      await both(a, b);
      expect(a.memory()).toEqual(b.memory());
      for (let d = 1; d <= 7; d++) expect(a.read(`home/log/2026-06-2${String(d)}.md`)).toMatch(new RegExp(`server day ${String(d)}[\\s\\S]*laptop day ${String(d)}`));
      expect(statementsOf(b)).toContain('Back from the trip.');
    });

    it('the search index each device builds from the synced pages answers alike', async () => {
      const qa = await searchIndex(a, 'Globex dog');
      const qb = await searchIndex(b, 'Globex dog');
      expect(qa.length).toBeGreaterThan(0);
      expect(qa).toEqual(qb);
      expect(readFileSync(join(a.projectsDir, 'home', 'review.md'), 'utf8')).toContain('Globex');
      expect(readFileSync(join(b.projectsDir, 'home', 'review.md'), 'utf8')).toBe(readFileSync(join(a.projectsDir, 'home', 'review.md'), 'utf8'));
    });
  });
}

const LOCAL = suiteTempDir('sync-remote-');
scenario('local path remote', () => ({ url: join(LOCAL, 'memory.git'), bare: join(LOCAL, 'memory.git') }));

const missing = sshMissing();
describe.skipIf(missing !== null)(`over a local SSH server${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const dir = suiteTempDir('sync-sshd-');
  let server: Awaited<ReturnType<typeof startSshd>> | undefined;
  beforeAll(async () => {
    server = await startSshd(dir);
  });
  afterAll(() => server?.stop());
  scenario('ssh remote', () => ({
    url: `ssh://root@127.0.0.1:${String(server?.port)}${join(dir, 'memory.git')}`,
    bare: join(dir, 'memory.git'),
    env: { SYNC_SSH_COMMAND: server?.sshCommand ?? 'ssh' },
  }));
});

const noGcrypt = gcryptMissing();
describe.skipIf(noGcrypt !== null)(`an encrypted remote (git-remote-gcrypt) on a machine the household does not own${noGcrypt ? ` (skipped: ${noGcrypt})` : ''}`, { timeout: 180_000 }, () => {
  const dir = suiteTempDir('sync-gcrypt-');
  const before = process.env.GNUPGHOME;
  let fpr = '';
  beforeAll(() => {
    process.env.GNUPGHOME = join(dir, 'gnupg');
    fpr = makeGpgKey(join(dir, 'gnupg'));
  });
  afterAll(() => {
    if (before === undefined) delete process.env.GNUPGHOME;
    else process.env.GNUPGHOME = before;
  });

  it('a canary written on one device arrives on the other and is unreadable in the remote raw files', async () => {
    const bare = join(dir, 'untrusted.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const a = makeDevice(dir, 'laptop', { SYNC_REMOTE: bare, SYNC_ENCRYPT_TO: fpr });
    const b = makeDevice(dir, 'phone', { SYNC_REMOTE: bare, SYNC_ENCRYPT_TO: fpr });
    const canary = 'canary-7f3a-Sarah-badge-88d0';
    a.write(FILE, page([fact(`Her badge number is ${canary}.`)]));
    await a.sync.setup();
    await a.sync.syncNow();
    await b.sync.setup();
    await b.sync.syncNow();
    expect(b.read(FILE)).toContain(canary);
    b.append(FILE, `${fact('Second canary-from-phone-19c2.')}\n`);
    await both(b, a);
    expect(a.read(FILE)).toContain('canary-from-phone-19c2');
    const raw: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        if (statSync(join(d, f)).isDirectory()) walk(join(d, f));
        else raw.push(readFileSync(join(d, f)).toString('latin1'));
      }
    };
    walk(bare);
    expect(raw.some((t) => t.includes(canary) || t.includes('Sarah') || t.includes('canary-from-phone'))).toBe(false);
    // every object the remote holds, as git itself reads it
    const objects = execFileSync('git', ['--git-dir', bare, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    for (const id of objects) expect(execFileSync('git', ['--git-dir', bare, 'cat-file', '-p', id]).toString('latin1')).not.toContain(canary);
    expect((await a.sync.status()).encrypted).toBe(true);
  });

  it('the check can fail: a plain remote shows the same canary to git cat-file', async () => {
    const bare = join(dir, 'plain.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const c = makeDevice(dir, 'control', { SYNC_REMOTE: bare });
    c.write(FILE, page([fact('Plain canary-plain-5e1b.')]));
    await c.sync.setup();
    await c.sync.syncNow();
    const objects = execFileSync('git', ['--git-dir', bare, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(objects.some((id) => execFileSync('git', ['--git-dir', bare, 'cat-file', '-p', id]).toString('latin1').includes('canary-plain-5e1b'))).toBe(true);
  });
});
