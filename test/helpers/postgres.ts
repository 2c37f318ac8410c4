import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Debian's PostgreSQL server binaries (package `postgresql`), the newest major version installed, or null. */
function serverBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** Why the PostgreSQL tests cannot run here, or null: they need Debian's `postgresql` package (CI installs it). */
export const postgresMissing = serverBin()
  ? null
  : 'Debian package postgresql is not installed (apt-get install postgresql): the PostgreSQL control-plane tests are skipped';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * A throwaway PostgreSQL server on loopback (initdb in a temporary folder, pg_ctl start), as the user `postgres` when
 * the tests run as root (the server refuses root). Its URL, `stop()` that shuts it down and removes its files, and
 * `pause()` and `resume()` that stop it and start it again on the same port with the same data.
 */
export async function startPostgres(): Promise<{ url: string; stop(): void; pause(): void; resume(): void }> {
  const bin = serverBin();
  if (!bin) throw new Error(postgresMissing!);
  // The server runs as `postgres` under root: it must reach its folder through the run's private temporary root.
  if (userInfo().uid === 0) chmodSync(tmpdir(), statSync(tmpdir()).mode | 0o711);
  const dir = mkdtempSync(join(tmpdir(), 'mktdata-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const asServer = (command: string, args: string[]) => {
    const [file, argv] =
      userInfo().uid === 0
        ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
        : [join(bin, command), args];
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  asServer('initdb', ['-D', data, '-U', 'mktdata', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const startOn = (port: number) =>
    asServer('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'server.log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  // The port is free when asked for but could be taken before the server binds it: then another one.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      startOn(port);
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  const stop = () => {
    try {
      asServer('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    url: `postgres://mktdata@127.0.0.1:${port}/postgres`,
    stop,
    // Closing the clients' connections, as a restart of the server does; its files stay for `resume`.
    pause: () => asServer('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    resume: () => startOn(port),
  };
}
