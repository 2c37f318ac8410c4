import { Agent, get } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { closeGracefully } from '../../src/api/close-gracefully.ts';

/** A keep-alive GET; resolves with the status and body, or with the error that ended it. */
function keepAliveGet(url: string, agent: Agent): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    get(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (error) => resolve({ error: error.message }));
    }).on('error', (error) => resolve({ error: error.message }));
  });
}

/** Resolves with 'closed' when `closing` does, or 'still waiting' after `ms`. */
const within = (closing: Promise<void>, ms: number) =>
  Promise.race([closing.then(() => 'closed'), delay(ms).then(() => 'still waiting')]);

describe('closing the server', () => {
  it('lets a request in flight finish, then closes its keep-alive connection instead of waiting out the keep-alive timeout', async () => {
    const app = Fastify();
    let receive!: () => void;
    const received = new Promise<void>((resolve) => (receive = resolve));
    app.get('/slow', async () => {
      receive();
      await delay(300);
      return 'done';
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const agent = new Agent({ keepAlive: true });
    const answer = keepAliveGet(`${url}/slow`, agent);
    await received; // the request is in flight (a request arriving after close began would get Fastify's 503)
    // Node's server.close() alone leaves this connection open for Fastify's 72 s keep-alive timeout after its response.
    expect(await within(closeGracefully(app), 20_000)).toBe('closed');
    expect(await answer).toEqual({ status: 200, body: 'done' });
    agent.destroy();
  });

  it('cuts a request still in flight after the grace period', async () => {
    const app = Fastify();
    let receive!: () => void;
    const received = new Promise<void>((resolve) => (receive = resolve));
    app.get('/endless', () => {
      receive();
      return new Promise(() => {});
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const agent = new Agent({ keepAlive: true });
    const answer = keepAliveGet(`${url}/endless`, agent);
    await received;
    expect(await within(closeGracefully(app, 200), 20_000)).toBe('closed');
    expect((await answer).error).toMatch(/socket hang up|ECONNRESET/);
    agent.destroy();
  });
});
