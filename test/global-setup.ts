import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * The CLI tests run the built `bin`: build dist/ (the fake marketplace's package first) from the sources under test. The teardown removes the run's
 * temporary root (vitest.config.ts), where every test made its homes.
 */
export default function setup(): () => void {
  const teardown = () => {
    const root = process.env.MKTDATA_TEST_TMP;
    if (root) rmSync(root, { recursive: true, force: true });
  };
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  } catch (error) {
    teardown();
    throw error;
  }
  return teardown;
}
