// The package's own command (run from its build: `npm run build` first, as `npm test` at the root does).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('serves on the port asked for and prints the environment and a refresh token per seller and API', async () => {
  const bin = fileURLToPath(new URL('../bin/fake-marketplace.js', import.meta.url));
  const child = spawn(process.execPath, [bin, '--port', '0', '--speed', '60'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/ads {5}\S+ \(profile \d+\)\n[\s\S]*ads {5}\S+ \(profile \d+\)\n/.test(output)) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    const url = /^export MKTDATA_MARKETPLACE_URL='(http:\/\/127\.0\.0\.1:\d+)'$/m.exec(output)?.[1];
    expect(url).toBeDefined();
    expect(output).toMatch(/^export MKTDATA_CLOCK_SPEED='60'$/m);
    expect(output).toMatch(/^A3ACMEUS0SELLER ATVPDKIKX0DER /m);
    // It answers where it says it listens: LWA refuses an unknown client as the real one does.
    const token = await fetch(`${url}/auth/o2/token`, { method: 'POST', body: new URLSearchParams({}) });
    expect(token.status).toBe(401);
  } finally {
    child.kill('SIGTERM');
  }
});

it('refuses a port that is not one, naming it', async () => {
  const bin = fileURLToPath(new URL('../bin/fake-marketplace.js', import.meta.url));
  const child = spawn(process.execPath, [bin, '--port', 'eighty'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).toBe(2);
  expect(stderr).toContain('--port is not valid: eighty');
});
