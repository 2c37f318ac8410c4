import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/home.ts';

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;
const orders = 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL';
// 959 order lines of the demo's US seller, bought 2026-08-01..09-15 (the file's 960 lines less its header).
const file = join('fixtures', 'demo', 'us', orders, 'orders-2026-08-01_2026-09-15.tsv');

describe('managing what was made', () => {
  it('lists organizations and keys, revokes a key, and removes a connection with its rows (its documents kept)', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'mktdata-lifecycle-')), 'home');
    const h = ['--home', home];
    const json = async (args: string[]) =>
      JSON.parse((await cli([...args, '--format', 'json', ...h])).stdout) as Record<string, unknown>[];
    await cli(['init', ...h]);

    // Made without --tokens: unmetered; with them: metered.
    const org = lastLine((await cli(['org', 'create', '--name', 'Self-hosted', ...h])).stdout);
    const metered = lastLine((await cli(['org', 'create', '--name', 'Metered', '--tokens', '5', ...h])).stdout);
    expect((await cli(['org', 'tokens', '--org', org, ...h])).stdout).toBe('unmetered\n');
    expect(await json(['org', 'list'])).toEqual([
      { id: metered, name: 'Metered', tokens: 5, connections: 0, api_keys: 0, created_at: expect.any(String) },
      {
        id: org,
        name: 'Self-hosted',
        tokens: 'unmetered',
        connections: 0,
        api_keys: 0,
        created_at: expect.any(String),
      },
    ]);

    const made = await cli(['keys', 'create', '--org', org, ...h]);
    const keyId = /^key id (\S+) /m.exec(made.stdout)![1]!;
    expect(lastLine(made.stdout)).toMatch(/^mkt_/);
    const keys = await json(['keys', 'list']);
    expect(keys).toEqual([
      {
        id: keyId,
        organization_id: org,
        organization: 'Self-hosted',
        starts_with: `${lastLine(made.stdout).slice(0, 8)}…`,
        created_at: expect.any(String),
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(keys)).not.toContain(lastLine(made.stdout));
    expect((await cli(['keys', 'revoke', '--id', keyId, ...h])).stdout).toMatch(
      new RegExp(`^key ${keyId} revoked at \\d{4}-`),
    );
    expect((await json(['keys', 'list']))[0]!.revoked_at).toEqual(expect.any(String));
    expect(await cli(['keys', 'revoke', '--id', 'nope', ...h])).toMatchObject({
      code: 1,
      stderr: 'mktdata: --id: no API key nope (`mktdata keys list` shows their ids)\n',
    });

    // A connection whose orders landed and were built.
    const conn = lastLine(
      (
        await cli([
          'connections',
          'add',
          '--org',
          org,
          '--name',
          'Acme US',
          '--marketplace',
          'ATVPDKIKX0DER',
          '--seller-id',
          'A1',
          ...h,
        ])
      ).stdout,
    );
    mkdirSync(join(home, 'landing', conn, orders), { recursive: true });
    cpSync(file, join(home, 'landing', conn, orders, 'orders.tsv'));
    expect((await cli(['run', '--pipeline', 'profit', ...h])).code).toBe(0);
    const count = async () =>
      lastLine(
        (
          await cli([
            'query',
            `select count(*) from mkt_order_items_with_cogs where seller_or_vendor_id = '${conn}'`,
            '--format',
            'csv',
            ...h,
          ])
        ).stdout,
      );
    expect(await count()).toBe('959');

    const removed = await cli(['connections', 'remove', '--connection', conn, ...h]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(
      new RegExp(
        `^removed Acme US \\(${conn}\\): \\d+ row\\(s\\) deleted from the warehouse and the published file$`,
        'm',
      ),
    );
    expect(removed.stdout).toContain(`its landed documents are kept in landed/${conn}/ (--purge deletes them)`);
    expect(await count()).toBe('0');
    expect(await json(['connections', 'list'])).toEqual([]);
    expect(readdirSync(join(home, 'landed', conn, orders))).toHaveLength(1);

    // Added again under the same id, its kept document dropped again lands anew and gives the same rows.
    expect(
      (
        await cli([
          'connections',
          'add',
          '--org',
          org,
          '--name',
          'Acme US',
          '--marketplace',
          'ATVPDKIKX0DER',
          '--id',
          conn,
          ...h,
        ])
      ).code,
    ).toBe(0);
    const [kept] = readdirSync(join(home, 'landed', conn, orders));
    cpSync(join(home, 'landed', conn, orders, kept!), join(home, 'landing', conn, orders, 'orders.tsv'));
    expect((await cli(['run', '--pipeline', 'profit', ...h])).code).toBe(0);
    expect(await count()).toBe('959');

    const purged = await cli(['connections', 'remove', '--connection', conn, '--purge', ...h]);
    expect(purged.stdout).toContain('its landed documents were deleted');
    expect(existsSync(join(home, 'landed', conn))).toBe(false);
    expect((await cli(['connections', 'remove', '--connection', conn, ...h])).stderr).toMatch(/^mktdata: .*not found/);
  });
});
