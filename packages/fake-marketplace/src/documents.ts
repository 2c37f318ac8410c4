import { createHash, createHmac, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FakeDocument } from './data/types.ts';
import type { FakeState } from './state.ts';

/** A stored document: gzip bytes and the Content-Type its download answers with. */
interface Stored {
  gzip: Buffer;
  contentType: string;
}

const xml = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${randomUUID()}</RequestId></Error>`;

/**
 * The fake's stand-in for S3: documents stored gzipped, handed out as pre-signed links (`X-Amz-Expires`) that need
 * no API headers, expire, and refuse requests carrying SP-API auth headers (docs/design/live-apis.md §2.2).
 */
export class DocumentStore {
  readonly #documents = new Map<string, Stored | (() => Stored)>();

  constructor(private readonly state: FakeState) {}

  /** The bytes of a document (an uploaded feed), gunzipped, or undefined. */
  read(id: string): FakeDocument | undefined {
    const stored = this.#documents.get(id);
    if (!stored) return undefined;
    const whole = typeof stored === 'function' ? stored() : stored;
    return { body: gunzipSync(whole.gzip), contentType: whole.contentType };
  }

  /** Stores a document now, or lazily (generated on first download), under an id. */
  put(id: string, document: FakeDocument | (() => FakeDocument)): void {
    const store = (d: FakeDocument): Stored => ({ gzip: gzipSync(d.body), contentType: d.contentType });
    this.#documents.set(id, typeof document === 'function' ? () => store(document()) : store(document));
  }

  has(id: string): boolean {
    return this.#documents.has(id);
  }

  #signature(id: string, date: string, expires: number): string {
    return createHmac('sha256', this.state.linkKey).update(`${id}\n${date}\n${expires}`).digest('hex');
  }

  /** A pre-signed link to a document, valid `seconds` on the clock. */
  link(base: string, id: string, seconds: number): string {
    const date = new Date(this.state.clock.now()).toISOString().replace(/[-:]|\.\d+/g, '');
    const url = new URL(`${base}/s3/documents/${encodeURIComponent(id)}`);
    url.searchParams.set('X-Amz-Algorithm', 'AWS4-HMAC-SHA256');
    url.searchParams.set('X-Amz-Date', date);
    url.searchParams.set('X-Amz-Expires', String(seconds));
    url.searchParams.set('X-Amz-Signature', this.#signature(id, date, seconds));
    return url.toString();
  }

  /** Why a request to a pre-signed link is refused (status and S3 XML error), or null when its signature holds. */
  #refusal(request: FastifyRequest, id: string): [number, string] | null {
    const q = request.query as Record<string, string>;
    if (request.headers['x-amz-access-token'] || request.headers.authorization)
      return [
        400,
        xml(
          'InvalidArgument',
          'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
        ),
      ];
    const expires = Number(q['X-Amz-Expires']);
    if (!q['X-Amz-Signature'] || q['X-Amz-Signature'] !== this.#signature(id, q['X-Amz-Date'] ?? '', expires))
      return [
        403,
        xml('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.'),
      ];
    const signedAt = Date.parse(
      `${q['X-Amz-Date']!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')}`,
    );
    if (this.state.clock.now() > signedAt + expires * 1000) return [403, xml('AccessDenied', 'Request has expired')];
    return null;
  }

  routes(app: FastifyInstance): void {
    app.get('/s3/documents/:id', async (request, reply) => {
      const { id } = request.params as { id: string };
      const answer = (status: number, body: string | Buffer) => {
        this.state.record({
          at: request.stamp,
          api: 's3',
          operation: 'download',
          sellerId: null,
          status,
          overRate: false,
          detail: { documentId: id },
        });
        return reply.status(status).send(body);
      };
      reply.type('application/xml');
      const refused = this.#refusal(request, id);
      if (refused) return answer(...refused);
      let stored = this.#documents.get(id);
      if (!stored) return answer(404, xml('NoSuchKey', 'The specified key does not exist.'));
      if (typeof stored === 'function') {
        stored = stored();
        this.#documents.set(id, stored);
      }
      // The stored object is gzip; served as is (Content-Encoding: identity): the client gunzips it.
      reply.type(stored.contentType).header('content-encoding', 'identity');
      return answer(200, stored.gzip);
    });
    // Uploads (a feed document's contents, PUT to the link createFeedDocument handed out): any content type, as bytes.
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.put('/s3/documents/:id', async (request, reply) => {
        const { id } = request.params as { id: string };
        const refused = this.#refusal(request, id);
        const status = refused?.[0] ?? 200;
        this.state.record({
          at: request.stamp,
          api: 's3',
          operation: 'upload',
          sellerId: null,
          status,
          overRate: false,
          detail: { documentId: id },
        });
        if (refused) return reply.type('application/xml').status(status).send(refused[1]);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        this.put(id, { body, contentType: String(request.headers['content-type'] ?? 'application/octet-stream') });
        return reply
          .status(200)
          .header('etag', `"${createHash('md5').update(body).digest('hex')}"`)
          .send('');
      });
    });
  }
}
