import { defineConfig } from 'vitest/config';

// Two projects. Unit tests hold no module state (the architecture forbids module-level mutable
// state), so they share one worker's module cache instead of re-importing discord.js, LanceDB,
// zod and yaml per file: measured 23.3 s -> 10.6 s for test/unit on the 2-core machine, all passing.
// Integration and chaos tests start servers, child processes and SQLite files; they too hold
// no module state and close what they open, so their files share a fork's module cache as well
// (one import of the app per worker instead of one per file, ~3 s a file on the loaded machine).
// Two workers on two cores: most integration time is waiting (child processes, fsync, servers,
// the browser), and Vitest's default there is one worker (cores - 1).
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          isolate: false,
          // A unit test that hangs fails in 10 s instead of 30.
          testTimeout: 10_000,
          hookTimeout: 10_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/chaos/**/*.test.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
