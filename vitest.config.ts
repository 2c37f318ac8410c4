import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The model-graph cache of the run's temporary model folders stays out of the user's ~/.cache.
    env: { TZ: 'UTC', MKTDATA_CACHE_DIR: mkdtempSync(join(tmpdir(), 'mktdata-test-cache-')) },
  },
});
