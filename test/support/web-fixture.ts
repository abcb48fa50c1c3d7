/**
 * A whole Charlie with its web front door on a loopback port, for the web tests, the web
 * benchmark and the screenshots: temp projects/ and data/, the real composition (buildApp +
 * startWebApp), the built-in embedder, and a scripted fake model server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { silentLogger, type Clock } from '../../src/core/ports/index.js';
import { buildApp } from '../../src/main.js';
import { startWebApp } from '../../src/app/web-door.js';
import type { LiveSpeech } from '../../src/app/live-settings.js';
import type { WebServer } from '../../src/web/server.js';
import { startFakeModelServer, type FakeModelServer, type Script } from './fake-model-server.js';

export const TOKEN = 'test-owner-token-0123456789';

export interface WebFixture {
  web: WebServer;
  model: FakeModelServer;
  root: string;
  projectsDir: string;
  dataDir: string;
  printed: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Writes files under projects/ (paths relative to it). */
export function writeProjectFiles(projectsDir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const full = join(projectsDir, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

export function projectFile(name: string, key: string): string {
  return `---\nschema: 1\nid: ${key}\nname: ${name}\nkeys:\n  - ${key}\nstyle: ""\ndistill_every: 50\narchive: true\nrespond: always\ncreated: 2026-11-01T10:00:00.000Z\nupdated: 2026-11-01T10:00:00.000Z\n---\n\nThe ${name} project plans things together.\n`;
}

/** The settings of a whole app that runs offline against a fake model server: built-in embedder, no folder watcher, silent log. */
export function offlineAppEnv(modelUrl: string, projectsDir: string, dataDir: string): Record<string, string> {
  return { LLM_BASE_URL: modelUrl, LLM_MODEL: 'fake-model', EMBEDDER: 'builtin', WATCH_PROJECTS: 'false', PROJECTS_DIR: projectsDir, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
}

/** `clock` drives the scheduler (and everything else in the app); the test calls `app.time.tick()`. */
/** `speech`: the voice and speech-to-text the web app starts with, and how Settings builds another voice (default: none). */
export async function startWebFixture(options: { script: Script; files?: Record<string, string>; env?: Record<string, string>; clock?: Clock; speech?: LiveSpeech }): Promise<WebFixture> {
  const root = mkdtempSync(join(tmpdir(), 'charlie-web-'));
  const projectsDir = join(root, 'projects');
  const dataDir = join(root, 'data');
  mkdirSync(projectsDir, { recursive: true });
  writeProjectFiles(projectsDir, options.files ?? {});
  const model = await startFakeModelServer(options.script);
  const port = await freePort();
  const config = loadConfig(
    {
      ...offlineAppEnv(model.url, projectsDir, dataDir),
      WEB_PORT: String(port),
      WEB_TOKEN: TOKEN,
      TTS: 'local',
      ...options.env,
    },
    root,
  );
  const app = await buildApp(config, silentLogger, undefined, undefined, options.clock);
  let printed = '';
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      printed += chunk.toString();
      done();
    },
  });
  const web = await startWebApp(config, app, silentLogger, options.speech ?? {}, out);
  if (!web) throw new Error(`web app did not start: ${printed}`);
  return {
    web,
    model,
    root,
    projectsDir,
    dataDir,
    printed,
    app,
    async close() {
      await web.close();
      await app.close();
      await model.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
