import { defineConfig } from 'vitest/config';
import { missing, onCI, REQUIREMENTS } from './tests/support/requirements.ts';

export default defineConfig({
  test: {
    // A test file that needs Chromium, Firefox or redis-server says so with a tag (`// @module-tag redis`). Where the
    // program is missing its tests skip, and the run ends with the sentence saying how to get it; under CI=true they
    // run and fail instead, as .ci/run installs all three.
    tags: REQUIREMENTS.map((name) => ({ name, description: `needs ${name}`, skip: !onCI && missing(name) !== undefined })),
    reporters: ['default', './tests/support/skip-reasons.ts'],
    projects: [
      {
        // Two files at a time: the machine CI runs on has two cores, and vitest would otherwise use one of them.
        // A unit test's time is never what it checks (politeness, retries and backoffs run on a VirtualClock; what
        // runs on the real clock has a margin of ten times or more), so its timeout only catches a hang: five minutes,
        // over fifteen times the CPU time of the slowest test alone (seed-lists.test.ts's crawl of 5,000 seeds, 17 s on a
        // loaded machine), so that a machine busy with other work fails none. expect.poll waits up to a minute for the same reason.
        // One Node process per worker for all its files, not one per file (isolate: false): starting a process and
        // importing a file's modules anew took 40% of the suite's CPU time (docs/development.md). A file's state is
        // its own: each test opens its own database (fake-indexeddb) and servers on free ports.
        test: {
          name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', maxWorkers: 2, isolate: false,
          testTimeout: 300_000, hookTimeout: 300_000, expect: { poll: { timeout: 60_000 } },
        },
      },
      {
        // Real Chromium (or Firefox) with the built extension, two browsers at a time: most of an end-to-end test is
        // waiting on a page, a server's latency or the browser's alarms, so two files share the machine's two cores
        // without either being starved. expect.poll waits a minute for what a page shows, not vitest's one second.
        test: {
          name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node', testTimeout: 180_000, hookTimeout: 180_000, maxWorkers: 2,
          expect: { poll: { timeout: 60_000 } },
        },
      },
    ],
  },
});
