// Isolation and path probes of the resources beside exports: unit costs, vendor codes, SQP lists, data files and usage
// logs. A makes one of each through the API (a unit-cost row, an SQP list, a PNG data file); B's key then reaches for
// them by A's ids (404, nothing of A's in the answer), the file ids are probed with traversal, and A's resources must
// be intact afterwards.
import { API, PAYLOADS, s4xx, type Answer, type Expect, type Req } from './probe-judge.ts';

/** A 1×1 PNG: the magic bytes a data file of type PNG must start with, and a few more. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f40000000049454e44ae426082',
  'hex',
);

export async function resourceProbes(p: {
  probe: (name: string, req: Req, expect: Expect) => Promise<Answer | undefined>;
  must: (what: string, req: Req, status: number) => Promise<Record<string, unknown>>;
  setGroup: (name: string) => void;
  keyA: string;
  keyB: string;
  connA: string;
  connB: string;
  secretsOfA: string[];
  secretsOfB: string[];
  traversals: string[];
}): Promise<void> {
  const { probe, must, keyA, keyB, connA, connB } = p;
  const cogsRow = {
    asin: 'B0PROBE001',
    sku: 'PROBE-SKU-A',
    costCurrency: 'USD',
    fromDate: '2026-01-01',
    costItemValue: '1.25',
    costItemShippingValue: '0.10',
  };
  const change = await must(
    'A upserts a unit cost',
    { method: 'POST', path: `${API}/cogs`, key: keyA, json: { sellerOrVendorId: connA, cogsToUpsert: [cogsRow] } },
    200,
  );
  const sqp = await must(
    'A lists an SQP ASIN',
    { method: 'POST', path: `${API}/sqp-asins`, key: keyA, json: { sellerOrVendorId: connA, asins: ['B0PROBE001'] } },
    200,
  );
  const file = await must(
    'A uploads a data file',
    {
      method: 'POST',
      path: `${API}/files`,
      key: keyA,
      json: {
        name: 'probe-a-image.png',
        group: 'LISTING_IMAGES',
        type: 'PNG',
        sellerOrVendorId: connA,
        ttlHours: 24,
        contentBase64: PNG.toString('base64'),
      },
    },
    201,
  );
  const fileA = String(file.id);
  const secrets = [...p.secretsOfA, fileA, String(change.changeId), 'probe-a-image.png', 'PROBE-SKU-A'];
  const B = (status: number[], ...echoes: string[]): Expect => ({ status, secrets, echoes });
  const asB = (req: Omit<Req, 'key'>): Req => ({ ...req, key: keyB });

  p.setGroup('isolation');
  await probe(
    "unit costs of A's connection",
    asB({ method: 'POST', path: `${API}/cogs`, json: { sellerOrVendorId: connA, cogsToUpsert: [cogsRow] } }),
    B([404], connA),
  );
  await probe(
    "delete A's unit costs",
    asB({ method: 'DELETE', path: `${API}/cogs?sellerOrVendorId=${connA}` }),
    B([404], connA),
  );
  await probe(
    "vendor codes of A's connection",
    asB({
      method: 'POST',
      path: `${API}/vendor-codes`,
      json: { sellerOrVendorId: connA, vendorCodesToUpsert: [{ asin: 'B0PROBE001', vendorCode: 'X' }] },
    }),
    B([404], connA),
  );
  await probe(
    "delete A's vendor codes",
    asB({ method: 'DELETE', path: `${API}/vendor-codes?sellerOrVendorId=${connA}` }),
    B([404], connA),
  );
  await probe("A's SQP list", asB({ path: `${API}/sqp-asins?sellerOrVendorId=${connA}` }), B([404], connA));
  await probe(
    "add to A's SQP list",
    asB({ method: 'POST', path: `${API}/sqp-asins`, json: { sellerOrVendorId: connA, asins: ['B0PROBE002'] } }),
    B([404], connA),
  );
  await probe(
    "remove from A's SQP list",
    asB({ method: 'DELETE', path: `${API}/sqp-asins`, json: { sellerOrVendorId: connA, asins: ['B0PROBE001'] } }),
    B([404], connA),
  );
  await probe("A's data file", asB({ path: `${API}/files/${fileA}` }), B([404], fileA));
  await probe("A's data file download", asB({ path: `${API}/files/${fileA}/download` }), B([404], fileA));
  await probe("delete A's data file", asB({ method: 'DELETE', path: `${API}/files/${fileA}` }), B([404], fileA));
  await probe(
    "a data file on A's connection",
    asB({
      method: 'POST',
      path: `${API}/files`,
      json: {
        name: 'b.png',
        group: 'LISTING_IMAGES',
        type: 'PNG',
        sellerOrVendorId: connA,
        ttlHours: 1,
        contentBase64: PNG.toString('base64'),
      },
    }),
    B([404], connA),
  );
  const empty = (a: Answer) =>
    (a.json as { totalCount?: number } | undefined)?.totalCount === 0
      ? undefined
      : `lists ${(a.json as { totalCount?: number } | undefined)?.totalCount} item(s)`;
  await probe("data files of A's connection", asB({ path: `${API}/files?sellerOrVendorIds=${connA}` }), {
    ...B([200]),
    check: empty,
  });
  await probe("data files named like A's", asB({ path: `${API}/files?query=probe-a` }), { ...B([200]), check: empty });
  await probe('usage logs', asB({ path: `${API}/usage-logs?usageTypes=COGS` }), { ...B([200]), check: empty });

  p.setGroup('traversal');
  for (const t of p.traversals) {
    for (const [name, path] of [
      ['GET /files/{fileId}', `${API}/files/${t}`],
      ['GET /files/{fileId}/download', `${API}/files/${t}/download`],
      ['DELETE /files/{fileId}', `${API}/files/${t}`],
    ] as const) {
      await probe(
        `${name} with ${t.slice(0, 40)}`,
        { method: name.startsWith('DELETE') ? 'DELETE' : 'GET', path, key: keyA },
        { status: s4xx, secrets: p.secretsOfB, echoes: [t, safeDecode(t)] },
      );
    }
  }

  p.setGroup('injection');
  for (const payload of PAYLOADS) {
    const q = encodeURIComponent(payload);
    await probe(
      `${payload} in files query=`,
      { path: `${API}/files?query=${q}`, key: keyA },
      { status: [200], secrets: p.secretsOfB, echoes: [payload, q], check: empty },
    );
    await probe(
      `${payload} in cogs delete sku=`,
      { method: 'DELETE', path: `${API}/cogs?sellerOrVendorId=${connA}&sku=${q}`, key: keyA },
      { status: [204], secrets: p.secretsOfB },
    );
    await probe(
      `${payload} as an SQP ASIN`,
      { method: 'POST', path: `${API}/sqp-asins`, key: keyA, json: { sellerOrVendorId: connA, asins: [payload] } },
      { status: [400], secrets: p.secretsOfB, echoes: [payload] },
    );
    await probe(
      `${payload} in usage-logs usageTypes=`,
      { path: `${API}/usage-logs?usageTypes=${q}`, key: keyA },
      { status: [400], names: 'usageTypes', secrets: p.secretsOfB, echoes: [payload, q] },
    );
  }

  p.setGroup('intact');
  await probe(
    "A's data file survived",
    { path: `${API}/files/${fileA}`, key: keyA },
    {
      status: [200],
      secrets: p.secretsOfB,
      check: (a) =>
        (a.json as { status?: string }).status === 'UPLOADED'
          ? undefined
          : `status ${(a.json as { status?: string }).status}`,
    },
  );
  await probe(
    "A's SQP list survived",
    { path: `${API}/sqp-asins?sellerOrVendorId=${connA}`, key: keyA },
    {
      status: [200],
      secrets: p.secretsOfB,
      check: (a) =>
        JSON.stringify((a.json as { asins?: string[] }).asins) === JSON.stringify(sqp.asins)
          ? undefined
          : `asins ${JSON.stringify((a.json as { asins?: string[] }).asins)}`,
    },
  );
  await probe(
    "A's unit-cost usage is A's",
    { path: `${API}/usage-logs?usageTypes=COGS`, key: keyA },
    {
      status: [200],
      secrets: p.secretsOfB,
      check: (a) => ((a.json as { totalCount?: number }).totalCount === 1 ? undefined : 'not one COGS record'),
    },
  );
  await probe(
    "B's own SQP list is empty",
    { path: `${API}/sqp-asins?sellerOrVendorId=${connB}`, key: keyB },
    {
      status: [200],
      secrets,
      check: (a) => ((a.json as { asins?: string[] }).asins?.length === 0 ? undefined : 'B sees ASINs'),
    },
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
