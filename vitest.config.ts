import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest test files first (longest processing time first), by their durations in CI: on a fresh clone vitest
 * knows no durations and started these last, so that the live-connector tests ran at the very end, side by side.
 */
const slowest = [
  'e2e/live-connectors.',
  'pipelines/arrival-order.',
  'scale/scale-out.',
  'cli/tarball.',
  'e2e/serve-beside.',
  'cli/cli.',
  'publish/spare.',
  'cli/demo.',
  'e2e/lapsed-grant.',
  'e2e/kill-resume.',
  'e2e/secrets.',
  'cli/backup.e2e.',
  'db/upgrade.',
  'publish/publish.',
  'console/console.browser.',
  'mcp/mcp-transports.',
];
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = slowest.findIndex((name) => file.moduleId.includes(`/test/${name}`));
      return index < 0 ? slowest.length : index;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}

/**
 * Every temporary home, cache and export of the run goes under one root (TMPDIR of the workers and of the processes
 * they start), which the global setup removes at the end: the homes the tests make are not left in /tmp.
 */
const root = (process.env.MKTDATA_TEST_TMP ??= mkdtempSync(join(tmpdir(), 'mktdata-tests-')));

export default defineConfig({
  // The tests run the fake marketplace from its sources (commands they start run its build, as users do).
  resolve: {
    alias: {
      '@mktdata/fake-marketplace': fileURLToPath(new URL('packages/fake-marketplace/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Limits that catch a test that hangs, not ones a test runs against: no test waits on them, and a test that takes
    // 30 s alone takes five minutes or more on a 2-core machine running two other suites (seen: load average 13).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    sequence: { sequencer: SlowestFirst },
    // Two files at a time on the two-core machines this runs on (vitest's default is one fewer than the cores: one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker runs its files one after another without importing every module again for each (1–3 s a file): no
    // test mocks a module, and those that set an environment variable restore it.
    isolate: false,
    // The model-graph cache of the run's temporary model folders stays out of the user's ~/.cache. DuckDB runs each
    // query on one thread (MKTDATA_THREADS, inherited by the commands the tests start): the test data is small, and
    // with two files at a time on two cores a thread per core in every instance only adds switching (a first load
    // of the live-connectors test: 18% less CPU, and faster alone too).
    env: { TZ: 'UTC', TMPDIR: root, MKTDATA_CACHE_DIR: join(root, 'model-cache'), MKTDATA_THREADS: '1' },
  },
});
