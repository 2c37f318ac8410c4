import { MktdataError } from '../errors.ts';
import { served } from './served.ts';

/** Reads one line from a terminal without echoing it (raw mode), for a secret typed by hand. */
function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003')
          return done(new MktdataError('ERR_INPUT_INVALID', { where: 'stdin', reason: 'cancelled' }));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}

/** All of standard input (a pipe or a file), trimmed. */
async function readPiped(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.trim();
}

/**
 * A secret from the environment variable `envName`, else standard input: typed without echo on a terminal, or the
 * first line of a pipe. Secrets never come from the command line, where `ps` and shell history would keep them.
 */
export async function readSecret(envName: string, what: string): Promise<string> {
  // A command a running server runs for its client: the client read the secret before handing the command over.
  const handed = served()?.secrets[envName];
  if (handed !== undefined) return handed;
  const fromEnv = process.env[envName];
  const value =
    fromEnv ?? (process.stdin.isTTY ? await readHidden(`${what}: `) : (await readPiped()).split('\n')[0]!.trim());
  if (!value)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: fromEnv === undefined ? 'stdin' : envName,
      reason: `no ${what} given: set ${envName} or write it to standard input`,
    });
  return value;
}
