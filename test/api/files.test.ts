// The Data files endpoints (spec document 000 "Data file", "Data files"; docs/design/API.md; docs/api.md "Data files"),
// in process.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { signDownload, urlSigningKey } from '../../src/exports/signed-url.ts';
import { sweepFiles } from '../../src/files/data-files.ts';
import type { Home } from '../../src/home.ts';
import { DE, makeHome, US } from '../helpers/home.ts';

const OTHER = '00000000-0000-4000-8000-00000000f0c1';
const L1 = '00000000-0000-4000-8000-00000000f1a1';
const L2 = '00000000-0000-4000-8000-00000000f1a2';
const hour = 3_600_000,
  MiB = 1024 * 1024;
// Magic bytes and a few more: a PNG signature + IHDR length, a JFIF start, little- and big-endian TIFF headers.
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
const jpg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]);
const tiffLe = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
const tiffBe = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08]);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The path and query of an absolute link, for app.inject. */
const local = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

describe('data files over HTTP', () => {
  let wh: Warehouse, home: Home, app: App;
  let key: string, org: string, otherKey: string, listKey: string;
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    ({ wh, home } = await makeHome());
    org = (await wh.db.selectFrom('control.organizations').select('id').executeTakeFirstOrThrow()).id;
    key = await createApiKey(wh, org);
    const other = await createOrganization(wh, { name: 'Other org', tokens: 5 });
    otherKey = await createApiKey(wh, other);
    await addConnection(wh, { organizationId: other, id: OTHER, name: 'Other US', marketplaceId: US.marketplaceId });
    const lister = await createOrganization(wh, { name: 'List org', tokens: 5 });
    listKey = await createApiKey(wh, lister);
    await addConnection(wh, { organizationId: lister, id: L1, name: 'List US', marketplaceId: US.marketplaceId });
    await addConnection(wh, { organizationId: lister, id: L2, name: 'List DE', marketplaceId: DE.marketplaceId });
    app = await buildApp({ wh, home, logger: false, now: () => clock, requestsPerSecond: 1000 });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, apiKey: string | null = key) => {
    clock += 1000; // a fresh second per call: "newest first" is then well defined
    return app.inject({
      method,
      url,
      headers: apiKey ? { 'service-api-key': apiKey } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
  };
  const put = (url: string, bytes: Buffer, contentType: string | null = 'application/octet-stream') =>
    app.inject({
      method: 'PUT',
      url: local(url),
      payload: bytes,
      headers: contentType ? { 'content-type': contentType } : {},
    });
  const fileRequest = (over: Record<string, unknown> = {}) => ({
    name: 'main.png',
    group: 'LISTING_IMAGES',
    type: 'PNG',
    sellerOrVendorId: US.id,
    ttlHours: 24,
    ...over,
  });
  const create = async (over: Record<string, unknown> = {}, apiKey = key) => {
    const res = await call('POST', '/api/v1/files', fileRequest(over), apiKey);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; uploadUrl: string } & Record<string, unknown>;
  };
  const names = async (query: string, apiKey = listKey) =>
    (await call('GET', `/api/v1/files?${query}`, undefined, apiKey)).json().items.map((i: { name: string }) => i.name);
  const stored = () => readdirSync(home.files).sort();
  const balance = async () =>
    Number(
      (
        await wh.db
          .selectFrom('control.organizations')
          .select('token_balance')
          .where('id', '=', org)
          .executeTakeFirstOrThrow()
      ).token_balance,
    );

  describe('POST /files', () => {
    it('creates a WAITING_FOR_UPLOAD file with a signed upload link, for no tokens', async () => {
      const before = await balance();
      const res = await call('POST', '/api/v1/files', fileRequest({ name: ' main.png ' }));
      expect(res.statusCode).toBe(201);
      const id = res.json().id;
      const file = {
        id,
        fileId: id,
        organizationId: org,
        sellerOrVendorId: US.id,
        sellerOrVendorIds: [US.id],
        name: 'main.png',
        group: 'LISTING_IMAGES',
        type: 'PNG',
        status: 'WAITING_FOR_UPLOAD',
        source: 'API',
        sizeBytes: null,
        sha256: null,
        ttlHours: 24,
        createdAt: new Date(clock).toISOString(),
        uploadedAt: null,
        expiresAt: new Date(clock + 24 * hour).toISOString(),
        deletedAt: null,
      };
      // 15 minutes, to the second
      const expires = Math.floor((clock + 15 * 60_000) / 1000);
      expect(res.json()).toEqual({
        ...file,
        uploadUrl: expect.stringMatching(
          new RegExp(`^http://localhost(:80)?/api/v1/files/${id}/content\\?expires=${expires}&signature=[0-9a-f]{64}$`),
        ),
        uploadUrlExpiresAt: new Date(expires * 1000).toISOString(),
      });
      expect((await call('GET', `/api/v1/files/${id}`)).json()).toEqual(file);
      expect(await balance()).toBe(before);
    });

    it('stores inline content at once as UPLOADED, whose upload link then answers 409', async () => {
      const file = await create({
        name: 'front.jpg',
        type: 'JPG',
        group: 'APLUS_IMAGES',
        contentBase64: jpg.toString('base64'),
      });
      expect(file).toMatchObject({
        status: 'UPLOADED',
        sizeBytes: 8,
        sha256: sha(jpg),
        uploadedAt: new Date(clock).toISOString(),
        group: 'APLUS_IMAGES',
      });
      expect(readFileSync(join(home.files, `${file.id}.jpg`))).toEqual(jpg);
      const again = await put(file.uploadUrl, jpg);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'ERR_FILE_NOT_WAITING',
        message: `data file ${file.id} is UPLOADED, not WAITING_FOR_UPLOAD: its upload link takes one upload only`,
      });
    });

    it('refuses a PNG declared as JPG with 400 naming the mismatch, storing nothing', async () => {
      const rows = await wh.db.selectFrom('control.data_files').select('id').execute();
      const res = await call(
        'POST',
        '/api/v1/files',
        fileRequest({ type: 'JPG', contentBase64: png.toString('base64') }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'ERR_FILE_TYPE_MISMATCH',
        message:
          'contentBase64: the content is a PNG file, not the declared type JPG (checked by its first bytes); nothing was stored',
      });
      const text = await call(
        'POST',
        '/api/v1/files',
        fileRequest({ contentBase64: Buffer.from('hello').toString('base64') }),
      );
      expect(text.json().message).toMatch(
        /^contentBase64: the content is not a PNG, JPG or TIFF file, not the declared type PNG/,
      );
      expect(await wh.db.selectFrom('control.data_files').select('id').execute()).toHaveLength(rows.length);
      expect(stored().filter((f) => !f.endsWith('.jpg'))).toEqual([]);
    });

    it.each([
      ['name', { name: '' }],
      ['name', { name: '   ' }],
      ['name', { name: 'x'.repeat(257) }],
      ['ttlHours', { ttlHours: 0 }],
      ['ttlHours', { ttlHours: 721 }],
      ['ttlHours', { ttlHours: 1.5 }],
      ['group', { group: 'BANNERS' }],
      ['type', { type: 'GIF' }],
      ['contentBase64', { contentBase64: 'not base64!' }],
      ['contentBase64', { contentBase64: 'iVBORw0' }],
      ['sellerOrVendorId', { sellerOrVendorId: undefined }],
    ])('answers 400 naming %s for %j', async (field, over) => {
      const res = await call('POST', '/api/v1/files', fileRequest(over));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('ERR_REQUEST_INVALID');
      expect(res.json().issues.map((i: { path: string[] }) => i.path.join('.'))).toContain(`body.${field}`);
    });

    it('takes a 256-character name and a ttl of 720 hours, and refuses content over 20 MiB with 400', async () => {
      expect(await create({ name: 'n'.repeat(256), ttlHours: 720 })).toMatchObject({
        name: 'n'.repeat(256),
        ttlHours: 720,
      });
      const big = Buffer.concat([png, Buffer.alloc(20 * MiB + 1 - png.length)]);
      const res = await call('POST', '/api/v1/files', fileRequest({ contentBase64: big.toString('base64') }));
      expect(res.statusCode).toBe(400);
      expect(res.json().issues).toEqual([
        expect.objectContaining({
          path: ['body', 'contentBase64'],
          message: 'at most 20971520 bytes (20 MiB) once decoded',
        }),
      ]);
    });

    it("answers 404 for another organization's connection or an unknown one, with nothing of theirs", async () => {
      for (const id of [OTHER, 'no-such-connection']) {
        const res = await call('POST', '/api/v1/files', fileRequest({ sellerOrVendorId: id }));
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'ERR_CONNECTION_NOT_FOUND', message: `connection ${id} not found` });
        expect(res.body).not.toContain('Other');
      }
    });

    it('answers 401 without a key on every key-protected endpoint', async () => {
      const { id } = await create();
      for (const [method, url] of [
        ['POST', '/api/v1/files'],
        ['GET', '/api/v1/files'],
        ['GET', `/api/v1/files/${id}`],
        ['DELETE', `/api/v1/files/${id}`],
        ['GET', `/api/v1/files/${id}/download`],
      ] as const) {
        const res = await call(method, url, method === 'POST' ? fileRequest() : undefined, null);
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('ERR_AUTH_MISSING_KEY');
      }
    });
  });

  describe('the upload link', () => {
    it('takes one PUT of the raw bytes under any content-type, then answers 409', async () => {
      for (const [type, bytes, contentType] of [
        ['TIFF', tiffLe, 'image/tiff'],
        ['TIFF', tiffBe, 'application/json'],
        ['PNG', png, null],
        ['JPG', jpg, 'application/octet-stream'],
      ] as const) {
        const file = await create({ type });
        const res = await put(file.uploadUrl, bytes, contentType);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({
          id: file.id,
          type,
          status: 'UPLOADED',
          sizeBytes: 8 + (type === 'PNG' ? 4 : 0),
          sha256: sha(bytes),
          uploadedAt: new Date(clock).toISOString(),
        });
        expect((await put(file.uploadUrl, bytes, contentType)).json()).toMatchObject({
          statusCode: 409,
          code: 'ERR_FILE_NOT_WAITING',
        });
      }
    });

    it('refuses a PNG put to a JPG file, or nothing, with 400, and the file still waits for its one upload', async () => {
      const file = await create({ type: 'JPG' });
      const wrong = await put(file.uploadUrl, png, 'image/png');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({
        code: 'ERR_FILE_TYPE_MISMATCH',
        message:
          'upload: the content is a PNG file, not the declared type JPG (checked by its first bytes); nothing was stored',
      });
      expect((await put(file.uploadUrl, Buffer.alloc(0))).json()).toMatchObject({
        statusCode: 400,
        code: 'ERR_FILE_TYPE_MISMATCH',
      });
      expect(stored().filter((f) => f.startsWith(file.id))).toEqual([]);
      expect((await call('GET', `/api/v1/files/${file.id}`)).json().status).toBe('WAITING_FOR_UPLOAD');
      expect((await put(file.uploadUrl, jpg)).statusCode).toBe(200);
      expect(stored().filter((f) => f.startsWith(file.id))).toEqual([`${file.id}.jpg`]);
    });

    it('answers 413 for a PUT over 20 MiB and takes exactly 20 MiB', async () => {
      const file = await create();
      const exact = Buffer.concat([png, Buffer.alloc(20 * MiB - png.length)]);
      const over = await put(file.uploadUrl, Buffer.concat([exact, Buffer.from([0])]));
      expect(over.statusCode).toBe(413);
      expect((await put(file.uploadUrl, exact)).json()).toMatchObject({ status: 'UPLOADED', sizeBytes: 20 * MiB });
    });

    it('answers 403 for a tampered, expired or foreign link: the signature binds file and purpose', async () => {
      const file = await create();
      const url = new URL(file.uploadUrl);
      const [expires, signature] = [url.searchParams.get('expires')!, url.searchParams.get('signature')!];
      const other = await create();
      const attempts = [
        `${url.pathname}?expires=${expires}&signature=${signature.replace(/^./, (c) => (c === '0' ? '1' : '0'))}`,
        `${url.pathname}?expires=${Number(expires) + 3600}&signature=${signature}`,
        `/api/v1/files/${other.id}/content?expires=${expires}&signature=${signature}`,
        `${url.pathname}?${signDownload(await urlSigningKey(wh), file.id, Number(expires))}`, // an export's signature
        url.pathname,
      ];
      for (const attempt of attempts) {
        const res = await app.inject({
          method: 'PUT',
          url: attempt,
          payload: png,
          headers: { 'content-type': 'image/png' },
        });
        expect(res.json()).toMatchObject({ statusCode: 403, code: 'ERR_FILE_SIGNATURE_INVALID' });
      }
      // The upload link does not download.
      expect((await call('GET', local(file.uploadUrl), undefined, null)).statusCode).toBe(403);
      clock += 15 * 60_000; // past the 15-minute link
      expect((await put(file.uploadUrl, png)).statusCode).toBe(403);
      expect((await call('GET', `/api/v1/files/${file.id}`)).json().status).toBe('WAITING_FOR_UPLOAD');
    });
  });

  describe('GET /files', () => {
    it("lists the organization's files newest first, with every filter and paging", async () => {
      await create(
        { name: 'Hero Shot.png', sellerOrVendorId: L1, ttlHours: 1, contentBase64: png.toString('base64') },
        listKey,
      );
      await create({ name: 'hero-back.jpg', type: 'JPG', sellerOrVendorId: L1, ttlHours: 1 }, listKey);
      await create(
        { name: 'banner.tif', type: 'TIFF', group: 'APLUS_IMAGES', sellerOrVendorId: L2, ttlHours: 48 },
        listKey,
      );
      const deleted = await create(
        {
          name: 'Aplus HERO.png',
          group: 'APLUS_IMAGES',
          sellerOrVendorId: L2,
          ttlHours: 48,
          contentBase64: png.toString('base64'),
        },
        listKey,
      );
      expect((await call('DELETE', `/api/v1/files/${deleted.id}`, undefined, listKey)).statusCode).toBe(204);

      const all = (await call('GET', '/api/v1/files', undefined, listKey)).json();
      expect(all).toMatchObject({ page: 1, pageSize: 25, totalCount: 4 });
      expect(all.items.map((i: { name: string }) => i.name)).toEqual([
        'Aplus HERO.png',
        'banner.tif',
        'hero-back.jpg',
        'Hero Shot.png',
      ]);
      expect(await names('query=hERo')).toEqual(['Aplus HERO.png', 'hero-back.jpg', 'Hero Shot.png']);
      expect(await names('group=APLUS_IMAGES')).toEqual(['Aplus HERO.png', 'banner.tif']);
      expect(await names('statuses=UPLOADED,DELETED')).toEqual(['Aplus HERO.png', 'Hero Shot.png']);
      expect(await names('statuses=WAITING_FOR_UPLOAD&statuses=DELETED')).toEqual([
        'Aplus HERO.png',
        'banner.tif',
        'hero-back.jpg',
      ]);
      expect(await names('types=PNG&types=TIFF')).toEqual(['Aplus HERO.png', 'banner.tif', 'Hero Shot.png']);
      expect(await names('sources=API')).toHaveLength(4);
      expect(await names('sources=UI,MCP,DATA')).toEqual([]);
      expect(await names(`sellerOrVendorIds=${L2}`)).toEqual(['Aplus HERO.png', 'banner.tif']);
      expect(await names('group=LISTING_IMAGES&types=JPG')).toEqual(['hero-back.jpg']);
      const page = (await call('GET', '/api/v1/files?page=2&pageSize=3', undefined, listKey)).json();
      expect(page).toMatchObject({ page: 2, pageSize: 3, totalCount: 4 });
      expect(page.items.map((i: { name: string }) => i.name)).toEqual(['Hero Shot.png']);
      // Only the caller's files: the main organization sees none of these.
      expect(await names(`sellerOrVendorIds=${L1},${L2}`, key)).toEqual([]);
      expect(await names('query=hero', otherKey)).toEqual([]);
      for (const bad of [
        'pageSize=101',
        'pageSize=0',
        'page=0',
        'statuses=BROKEN',
        'types=GIF',
        'sources=CLI',
        'group=X',
        'query=' + 'q'.repeat(257),
        'color=red',
      ]) {
        expect((await call('GET', `/api/v1/files?${bad}`, undefined, listKey)).statusCode, bad).toBe(400);
      }

      // Past their one-hour ttl, the first two read and filter as EXPIRED at once; the sweep then deletes the bytes.
      clock += hour;
      expect(await names('statuses=EXPIRED')).toEqual(['hero-back.jpg', 'Hero Shot.png']);
      expect(await names('statuses=UPLOADED,WAITING_FOR_UPLOAD')).toEqual(['banner.tif']);
      const hero = all.items[3];
      expect((await call('GET', `/api/v1/files/${hero.id}`, undefined, listKey)).json()).toMatchObject({
        status: 'EXPIRED',
        sizeBytes: 12,
      });
      expect((await call('GET', `/api/v1/files/${hero.id}/download`, undefined, listKey)).json()).toMatchObject({
        statusCode: 404,
        code: 'ERR_FILE_NOT_DOWNLOADABLE',
        message: `data file ${hero.id} is EXPIRED: only an UPLOADED file can be downloaded`,
      });
      expect(existsSync(join(home.files, `${hero.id}.png`))).toBe(true);
      await sweepFiles(wh, home, new Date(clock));
      expect(existsSync(join(home.files, `${hero.id}.png`))).toBe(false);
      const rows = await wh.db
        .selectFrom('control.data_files')
        .select(['name', 'status'])
        .where('id', 'in', [hero.id, all.items[1].id, all.items[2].id])
        .orderBy('name')
        .execute();
      expect(rows).toEqual([
        { name: 'Hero Shot.png', status: 'EXPIRED' },
        { name: 'banner.tif', status: 'WAITING_FOR_UPLOAD' },
        { name: 'hero-back.jpg', status: 'EXPIRED' },
      ]);
    });
  });

  describe('GET /files/{id}, its download, DELETE', () => {
    it("answers 404 for another organization's file or an unknown id, with nothing of theirs", async () => {
      const theirs = await create(
        { name: 'their-secret.png', sellerOrVendorId: OTHER, contentBase64: png.toString('base64') },
        otherKey,
      );
      for (const id of [theirs.id, 'no-such-file']) {
        for (const [method, url] of [
          ['GET', `/api/v1/files/${id}`],
          ['GET', `/api/v1/files/${id}/download`],
          ['DELETE', `/api/v1/files/${id}`],
        ] as const) {
          const res = await call(method, url);
          expect(res.json()).toMatchObject({
            statusCode: 404,
            code: 'ERR_FILE_NOT_FOUND',
            message: `data file ${id} not found`,
          });
          expect(res.body).not.toContain('secret');
        }
      }
      expect((await call('GET', `/api/v1/files/${theirs.id}`, undefined, otherKey)).json().status).toBe('UPLOADED');
    });

    it('redirects to a signed link that answers the bytes with their content-type, refused once expired or while waiting', async () => {
      const waiting = await create();
      expect((await call('GET', `/api/v1/files/${waiting.id}/download`)).json()).toMatchObject({
        statusCode: 404,
        code: 'ERR_FILE_NOT_DOWNLOADABLE',
        message: `data file ${waiting.id} is WAITING_FOR_UPLOAD: only an UPLOADED file can be downloaded`,
      });
      for (const [type, bytes, contentType, extension] of [
        ['PNG', png, 'image/png', 'png'],
        ['JPG', jpg, 'image/jpeg', 'jpg'],
        ['TIFF', tiffBe, 'image/tiff', 'tif'],
      ] as const) {
        const file = await create({ name: `shot "1".${extension}`, type, contentBase64: bytes.toString('base64') });
        const redirect = await call('GET', `/api/v1/files/${file.id}/download`);
        const link = redirect.headers.location as string;
        expect(redirect.statusCode).toBe(302);
        expect(local(link)).toMatch(
          new RegExp(`^/api/v1/files/${file.id}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`),
        );
        const res = await call('GET', local(link), undefined, null);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(contentType);
        expect(res.headers['content-disposition']).toBe(
          `attachment; filename="${file.id}.${extension}"; filename*=UTF-8''shot%20%221%22.${extension}`,
        );
        expect(res.rawPayload).toEqual(bytes);
        expect((await put(link, bytes)).statusCode).toBe(403); // a download link does not upload
        clock += 15 * 60_000;
        expect((await call('GET', local(link), undefined, null)).json()).toMatchObject({
          statusCode: 403,
          code: 'ERR_FILE_SIGNATURE_INVALID',
        });
      }
    });

    it('deletes with 204: DELETED, bytes gone, download refused, and deleting again changes nothing', async () => {
      const file = await create({ contentBase64: png.toString('base64') });
      const link = (await call('GET', `/api/v1/files/${file.id}/download`)).headers.location as string;
      expect((await call('DELETE', `/api/v1/files/${file.id}`)).statusCode).toBe(204);
      const deletedAt = new Date(clock).toISOString();
      expect((await call('GET', `/api/v1/files/${file.id}`)).json()).toMatchObject({
        status: 'DELETED',
        deletedAt,
        sizeBytes: 12,
      });
      expect(existsSync(join(home.files, `${file.id}.png`))).toBe(false);
      expect((await call('GET', `/api/v1/files/${file.id}/download`)).json()).toMatchObject({
        statusCode: 404,
        code: 'ERR_FILE_NOT_DOWNLOADABLE',
      });
      expect((await call('GET', local(link), undefined, null)).json()).toMatchObject({
        statusCode: 404,
        code: 'ERR_FILE_NOT_DOWNLOADABLE',
      });
      expect((await call('DELETE', `/api/v1/files/${file.id}`)).statusCode).toBe(204);
      expect((await call('GET', `/api/v1/files/${file.id}`)).json()).toMatchObject({ status: 'DELETED', deletedAt });
      expect(
        (await call('GET', '/api/v1/files?statuses=DELETED')).json().items.map((i: { id: string }) => i.id),
      ).toContain(file.id);
    });
  });

  it("documents the endpoints in a valid OpenAPI document under the spec's schema names", async () => {
    const document = (await call('GET', '/api/v1/openapi.json', undefined, null)).json();
    expect((await new Validator().validate(document)).errors ?? []).toEqual([]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'CreateDataFileRequest',
        'DataFileCreateResponse',
        'DataFileResponse',
        'DataFilesResponse',
      ]),
    );
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/files',
        '/api/v1/files/{fileId}',
        '/api/v1/files/{fileId}/download',
        '/api/v1/files/{fileId}/content',
      ]),
    );
  });
});
