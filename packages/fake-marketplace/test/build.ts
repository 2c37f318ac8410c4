import { execFileSync } from 'node:child_process';

/** Builds dist/ from the sources under test: the command's test runs it. */
export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
}
