import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** A `mktdata serve` child process on a loopback port. */
export interface ServeProcess {
  /** `http://127.0.0.1:PORT/api/v1` */
  base: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /**
   * SIGTERM, then waits for the exit (at once when it has already exited); returns the exit code. With `graceMs`, a
   * process still running after it is killed (SIGKILL) and what it printed last is shown.
   */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Starts `mktdata serve --home HOME --port 0 ...args` and resolves once it prints its URL; rejects with its output
 * when it exits first. With `logFile`, what it prints goes to that file instead of through this process (a load
 * generator then spends nothing on the server's logs).
 */
export async function startServe(
  homeRoot: string,
  args: string[] = [],
  options: { logFile?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ServeProcess> {
  const fd = options.logFile ? openSync(options.logFile, 'a') : undefined;
  const child = spawn('node', ['bin/mktdata.js', 'serve', '--home', homeRoot, '--port', '0', ...args], {
    stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'],
    env: { ...process.env, ...options.env },
  });
  if (fd !== undefined) closeSync(fd);
  let piped = '';
  const output = () => (options.logFile ? readFileSync(options.logFile, 'utf8') : piped);
  const stop = async (graceMs?: number) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const stopped =
        graceMs === undefined
          ? await exited.then(() => true)
          : await Promise.race([exited.then(() => true), delay(graceMs).then(() => false)]);
      if (!stopped) {
        console.warn(
          `mktdata serve did not exit within ${graceMs} ms of SIGTERM: killed; what it printed last:\n${output().slice(-4000)}`,
        );
        child.kill('SIGKILL');
        await exited;
      }
    }
    return child.exitCode;
  };
  for (const stream of [child.stdout, child.stderr])
    stream?.setEncoding('utf8').on('data', (chunk: string) => (piped += chunk));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const poll = setInterval(() => {
        const url = /mktdata serving (http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(output())?.[1];
        if (url) {
          clearInterval(poll);
          resolve(url);
        }
      }, 50);
      child.once('exit', (code) => {
        clearInterval(poll);
        reject(new Error(`serve exited with ${code} before serving:\n${output()}`));
      });
    });
    return { base, child, output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
