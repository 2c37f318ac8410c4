import { defineConfig } from 'vitest/config';

// The package's own tests (mktdata's `npm test` runs them too, under its configuration).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The command's test runs the build: make it from the sources under test.
    globalSetup: ['test/build.ts'],
    env: { TZ: 'UTC' },
  },
});
