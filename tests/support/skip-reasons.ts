// A reporter after vitest's own: the run's last lines say which tests were skipped and why, so that a machine without
// a browser or redis-server cannot pass for one that ran everything. The reason is the missing program's sentence
// (tests/support/requirements.ts) for a test tagged with it, else the note the test gave `skip()`.
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { missing, onCI, REQUIREMENTS, type Requirement } from './requirements';

function reasonSkipped(test: TestCase): string | undefined {
  // A failed beforeAll leaves the tests of its block skipped: the failure, reported above, is the reason.
  for (let p = test.parent; ; p = p.parent) {
    if (p.state() === 'failed') return 'not run: a hook of their file or block failed (the error is above)';
    if (p.type === 'module') break;
  }
  const needed = test.tags.filter((t): t is Requirement => (REQUIREMENTS as readonly string[]).includes(t));
  const absent = onCI ? undefined : needed.map(missing).find(Boolean);
  const result = test.result();
  return absent ?? (result.state === 'skipped' ? result.note : undefined);
}

export default class SkipReasons implements Reporter {
  private log: (line: string) => void = (line) => console.log(line);

  onInit(vitest: Vitest): void {
    this.log = (line) => vitest.logger.log(line);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    // reason -> file -> tests skipped for it
    const skipped = new Map<string, Map<string, number>>();
    let unexplained = 0;
    for (const module of modules) {
      for (const test of module.children.allTests('skipped')) {
        const reason = reasonSkipped(test);
        if (reason === undefined) {
          unexplained++;
          continue;
        }
        const files = skipped.get(reason) ?? new Map<string, number>();
        files.set(module.relativeModuleId, (files.get(module.relativeModuleId) ?? 0) + 1);
        skipped.set(reason, files);
      }
    }
    if (skipped.size === 0 && unexplained === 0) return;
    this.log('');
    const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
    for (const [reason, files] of skipped) {
      this.log(` Skipped ${tests([...files.values()].reduce((a, b) => a + b, 0))}: ${reason}`);
      for (const [file, n] of files) this.log(`   ${file} (${n})`);
    }
    if (unexplained > 0) this.log(` Skipped ${tests(unexplained)} with no reason given (it.skip, or left out by a filter such as -t)`);
  }
}
