/**
 * The per-device distillation cursor across two synced devices (issue 42): each device distils
 * exactly the messages it archived itself — never one the other device archived, never one of its
 * own twice, none skipped — while the day file they both wrote merges as a union in time order,
 * through the real engine (the system git to a bare repository on a local path).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../src/core/ports/index.js';
import { DeviceCursor } from '../../src/core/writing/device-cursor.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { createDistillLedger } from '../../src/sync/create.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { buildApp } from '../../src/main.js';
import { syncPart } from '../../src/doctor/sync-checks.js';
import { FixedClock } from '../support/fakes.js';
import { makeDevice, type Device } from '../support/sync-devices.js';
import { suiteTempDir } from '../support/temp-dir.js';

const DAY = '2026-06-20';
const origin = { name: 'home', key: 'terminal:home' };
const entry = (hms: string, speaker: string, text: string, role: LogEntry['role'] = 'user'): LogEntry => ({ time: `${DAY}T${hms}.250Z`, speaker, role, source: 'terminal:1', text });

interface Side {
  device: Device;
  store: FileProjectStore;
  cursor: DeviceCursor;
  /** Every text this side's distillation was given, in order. */
  distilled: string[];
  say(e: LogEntry): Promise<void>;
  /** One distillation: takes what is pending and commits the first `count` (all by default). */
  distil(count?: number): Promise<string[]>;
}

function side(device: Device): Side {
  const store = new FileProjectStore({ projectsDir: device.projectsDir, clock: new FixedClock(new Date(`${DAY}T12:00:00Z`)) });
  const cursor = new DeviceCursor(createDistillLedger(device.config), store);
  const s: Side = {
    device,
    store,
    cursor,
    distilled: [],
    async say(e) {
      await cursor.archived('home', e);
      await store.appendLog('home', e);
    },
    async distil(count) {
      const { entries, commit } = await cursor.pending('home');
      const taken = entries.slice(0, count ?? entries.length).map((e) => e.text);
      s.distilled.push(...taken);
      await commit(taken.length);
      return entries.map((e) => e.text);
    },
  };
  return s;
}

describe('the per-device distillation cursor with two synced devices', { timeout: 180_000 }, () => {
  const root = suiteTempDir('sync-cursor-');
  let laptop: Side;
  let server: Side;
  const sync = async () => {
    await laptop.device.sync.syncNow();
    await server.device.sync.syncNow();
    await laptop.device.sync.syncNow();
  };

  beforeAll(async () => {
    const bare = join(root, 'charlie.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    laptop = side(makeDevice(root, 'laptop', { SYNC_REMOTE: bare, SYNC_BACKGROUND: 'false' }));
    server = side(makeDevice(root, 'server', { SYNC_REMOTE: bare, SYNC_BACKGROUND: 'true' }));
    await laptop.store.ensureProject(origin);
    await laptop.device.sync.setup();
    await server.device.sync.setup();
    await server.store.ensureProject(origin);
  });

  it('each device is given only its own messages, wherever the merge put them, each once', async () => {
    await laptop.say(entry('08:00:00', 'Ann', 'L1 laptop first'));
    await server.say(entry('08:02:00', 'Bob', 'S1 server first'));
    await laptop.say(entry('08:05:00', 'Ann', 'L2 laptop second'));
    await server.say(entry('08:10:00', 'Bob', 'S2 server second'));
    // the laptop distils one of its two before the sync: the other stays its own
    expect(await laptop.distil(1)).toEqual(['L1 laptop first', 'L2 laptop second']);
    await sync();
    // one day file, the union in time order, on both devices
    const day = `home/log/${DAY}.md`;
    expect(laptop.device.read(day)).toBe(server.device.read(day));
    expect([...laptop.device.read(day).matchAll(/^(?:L|S)\d .*$/gm)].map((m) => m[0])).toEqual(['L1 laptop first', 'S1 server first', 'L2 laptop second', 'S2 server second']);
    expect(await laptop.distil()).toEqual(['L2 laptop second']);
    expect(await server.distil()).toEqual(['S1 server first', 'S2 server second']);
    expect(await laptop.distil()).toEqual([]);
    expect(await server.distil()).toEqual([]);
  });

  it('a message archived before the other device’s later one, merged in between, is still this device’s and only its', async () => {
    await server.say(entry('09:10:00', 'Bob', 'S3 server late'));
    await sync();
    // the laptop was behind: its message is earlier than one it already holds from the server
    await laptop.say(entry('09:05:00', 'Ann', 'L3 laptop behind'));
    await laptop.say(entry('09:06:00', 'Charlie', 'L3 reply', 'assistant'));
    await sync();
    expect(await server.distil()).toEqual(['S3 server late']);
    expect(await laptop.distil()).toEqual(['L3 laptop behind', 'L3 reply']);
    // every message distilled exactly once, across both devices
    const all = [...laptop.distilled, ...server.distilled].sort();
    expect(all).toEqual(['L1 laptop first', 'L2 laptop second', 'L3 laptop behind', 'L3 reply', 'S1 server first', 'S2 server second', 'S3 server late']);
  });

  it('doctor counts what waits here, and fails on a damaged list instead of taking it as empty', async () => {
    const check = syncPart(laptop.device.config)?.checks.find((c) => c.name === 'distillation here');
    await laptop.say(entry('10:00:00', 'Ann', 'L4 waiting'));
    expect(await check?.run(new AbortController().signal)).toMatchObject({ status: 'ok', detail: '1 message(s) archived on this device wait for its distillation' });
    const path = join(laptop.device.dataDir, 'sync', 'distill-pending.json');
    const kept = readFileSync(path, 'utf8');
    writeFileSync(path, '{"schema": 1, "projects": {"home": 7}}');
    expect(await check?.run(new AbortController().signal)).toMatchObject({ status: 'fail' });
    await expect(laptop.cursor.pending('home')).rejects.toThrow();
    writeFileSync(path, kept);
    expect(await laptop.distil()).toEqual(['L4 waiting']);
  });

  it('the list is this device’s own: it stays under data/ and never reaches the synced memory', () => {
    for (const s of [laptop, server]) {
      expect([...s.device.memory().keys()].filter((p) => p.includes('distill'))).toEqual([]);
      expect(s.device.memory().get('home/project.md') ?? '').not.toContain('S3 server late');
    }
  });
});

describe('the app keeps the per-device cursor only where sync is set', () => {
  const root = suiteTempDir('sync-cursor-app-');
  const ledger = (name: string) => join(root, name, 'data', 'sync', 'distill-pending.json');
  const run = async (name: string, env: Record<string, string>) => {
    const config = loadConfig(
      {
        PROJECTS_DIR: join(root, name, 'projects'),
        DATA_DIR: join(root, name, 'data'),
        EMBEDDER: 'builtin',
        WATCH_PROJECTS: 'false',
        SCHEDULER_ENABLED: 'false',
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        ...env,
      },
      join(root, name),
    );
    const app = await buildApp(config, silentLogger);
    try {
      await app.assistant.conversation.handle({ place: { kind: 'project', origin }, speaker: 'Ann', text: 'the tent is blue', source: 'terminal:7', reply: false });
    } finally {
      await app.close();
    }
  };

  it('with SYNC_REMOTE, an archived message goes on this device’s list; without it, no list is kept', async () => {
    await run('synced', { SYNC_REMOTE: join(root, 'nowhere.git'), SYNC_EVERY_MINUTES: '0' });
    const kept = JSON.parse(readFileSync(ledger('synced'), 'utf8')) as { projects: Record<string, string[]> };
    expect(Object.values(kept.projects).flat()).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\|user\|Ann\|terminal:7$/)]);
    await run('alone', {});
    expect(existsSync(ledger('alone'))).toBe(false);
  }, 60_000);
});
