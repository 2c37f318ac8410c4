import { execFileSync } from 'node:child_process';

/** The CLI tests run the built `bin`: build dist/ from the sources under test first. */
export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
