/**
 * Idle projects' search data is let go by a job of the one scheduler (`index-sweep`), not by a
 * timer of the index's own (test/unit/one-scheduler.test.ts): the composition root keeps the job,
 * and a tick after the budget's idle time lets go of a project nobody searched since.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import type { App } from '../../src/app/app.js';
import { buildApp } from '../../src/main.js';
import { loadResidentStatus } from '../../src/memory/index/resident-status.js';
import { FixedClock } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tempDir = tempDirs('charlie-index-sweep-');
let app: App | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

describe('the index-sweep job', () => {
  it('lets go of a project not searched for the idle time, and keeps one searched since', async () => {
    const dir = tempDir();
    const projectsDir = join(dir, 'projects');
    const dataDir = join(dir, 'data');
    const clock = new FixedClock(new Date('2026-12-06T10:00:30Z'));
    app = await buildApp(loadConfig({ PROJECTS_DIR: projectsDir, DATA_DIR: dataDir, EMBEDDER: 'builtin', WEB_PORT: '0', WATCH_PROJECTS: 'false' }, dir), silentLogger, undefined, undefined, clock);
    const place: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
    await app.assistant.settings.showMemory(place);
    const notes = join(projectsDir, 'general', 'notes', 'Topics');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'Boiler.md'), '---\nschema: 1\ntitle: Boiler\n---\n\n## Facts\n\n- The boiler needs a service in March [source:: terminal:1]\n');

    expect((await app.assistant.memory.searchMemory(place, 'boiler service')).length).toBeGreaterThan(0);
    const resident = () => loadResidentStatus(join(dataDir, 'index'))?.projects.map((p) => p.project) ?? [];
    expect(resident()).toEqual(['general']);

    // within the idle time a tick keeps it
    clock.advance(4 * 60_000);
    expect(await app.time.tick()).toBeGreaterThan(0);
    expect(resident()).toEqual(['general']);

    // past it (10 minutes), the next tick of the job lets it go
    clock.advance(8 * 60_000);
    expect(await app.time.tick()).toBeGreaterThan(0);
    expect(resident()).toEqual([]);
  });
});
