// The package as a user gets it: `npm pack`, installed into an empty folder, then `npx mktdata demo` and
// `npx mktdata serve` there, with nothing from this repository's tree but the tarball. npm 11 holds back a
// tarball dependency's lifecycle (its bin link included) until the project allows it (`allowScripts`), as a user
// does with `npm install-scripts approve`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';

const run = promisify(execFile);

/** Starts a long-running command and resolves with the URL it prints once it serves. */
function serving(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /mktdata serving (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(output)?.[1];
      if (url) resolve(url);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before serving:\n${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('the npm package', () => {
  it('installs from its tarball into an empty folder and runs the demo and the server there', async () => {
    const packed = mkdtempSync(join(tmpdir(), 'mktdata-pack-'));
    // dist/ is built by the test run's global setup; packing without scripts keeps prepack from rebuilding it
    // while other tests run the built command.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', packed, '--silent'], { maxBuffer: 16 << 20 });
    const tarball = join(
      packed,
      readdirSync(packed).find((f) => f.endsWith('.tgz'))!,
    );

    const user = mkdtempSync(join(tmpdir(), 'mktdata-user-'));
    writeFileSync(join(user, 'package.json'), JSON.stringify({ name: 'a-user', private: true }));
    const npm = (args: string[]) =>
      run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: user, maxBuffer: 16 << 20 });
    await npm(['install', tarball]);
    await run('npm', ['install-scripts', 'approve', 'mktdata'], { cwd: user });
    await npm(['rebuild', 'mktdata']);

    const { stdout: version } = await run('npx', ['--no-install', 'mktdata', '--version'], { cwd: user });
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);

    // The demo (fixtures, models, pipelines and migrations from the package), then serve on the home it made; the
    // installed command is started itself (npx would stand between the test and the process it stops).
    const env = { ...process.env, NO_COLOR: '1' };
    const mktdata = join(user, 'node_modules', '.bin', 'mktdata');
    const demo = spawn(mktdata, ['demo', '--port', '0'], { cwd: user, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // A test that times out never reaches its finally: the demo would serve on, loading the machine.
    onTestFinished(() => void (demo.exitCode === null && demo.kill('SIGKILL')));
    try {
      const api = await serving(demo);
      expect((await fetch(`${api}/spec/data-scheme?query=profit`)).status).toBe(200);
    } finally {
      await stop(demo);
    }
    const serve = spawn(mktdata, ['serve', '--port', '0', '--no-pipelines'], {
      cwd: user,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => void (serve.exitCode === null && serve.kill('SIGKILL')));
    try {
      const api = await serving(serve);
      const scheme = await (await fetch(`${api}/spec/data-scheme`)).json();
      expect(scheme.sources.length).toBeGreaterThan(20);
    } finally {
      await stop(serve);
    }
  }, 900_000); // a hang guard: npm pack and install, the demo and a server take about 90 s alone, far more on a busy machine
});
