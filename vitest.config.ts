import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
