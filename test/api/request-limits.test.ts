import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/api/app.ts';
import { createApiKey } from '../../src/control/organizations.ts';
import { makeHome } from '../helpers/home.ts';

/**
 * POSTs `body` in one write, as fetch and curl send it; resolves with the answer, or the socket error the client got.
 */
function post(url: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; json: Record<string, unknown> } | { error: string }>((resolve) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c) => (text += c))
          .on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(body);
  });
}

describe('request limits over a real socket', () => {
  it('answers a body over the limit with a 413 the client reads (not a reset), and names every 4xx status', async () => {
    const { home, wh } = await makeHome();
    const org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    const key = await createApiKey(wh, org);
    const app = await buildApp({ wh, home, requestsPerSecond: 1000, logger: false });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const big = Buffer.alloc(20 << 20, 0x20); // 20 MB of spaces: valid JSON whitespace, over the 1 MB body limit
      for (let attempt = 1; attempt <= 5; attempt++) {
        const answer = await post(
          `${base}/api/v1/exports`,
          { 'service-api-key': key, 'content-type': 'application/json' },
          big,
        );
        expect(answer, `attempt ${attempt}`).toMatchObject({
          status: 413,
          json: { statusCode: 413, error: 'Content Too Large', code: 'ERR_REQUEST_INVALID' },
        });
      }
      const xml = await post(
        `${base}/api/v1/exports`,
        { 'service-api-key': key, 'content-type': 'application/xml' },
        Buffer.from('<export/>'),
      );
      expect(xml).toMatchObject({ status: 415, json: { statusCode: 415, error: 'Unsupported Media Type' } });
      // The server still answers afterwards.
      expect((await fetch(`${base}/api/v1/spec/service_api.md`)).status).toBe(200);
    } finally {
      await app.close();
      await wh.close();
    }
  });
});
