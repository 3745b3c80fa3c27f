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
      // Two files at a time: the machine CI runs on has two cores, and vitest would otherwise use one of them.
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', maxWorkers: 2 } },
      {
        // Real Chromium (or Firefox) with the built extension, two browsers at a time: most of an end-to-end test is
        // waiting on a page, a server's latency or the browser's alarms, so two files share the machine's two cores
        // without either being starved.
        test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node', testTimeout: 180_000, hookTimeout: 180_000, maxWorkers: 2 },
      },
    ],
  },
});
