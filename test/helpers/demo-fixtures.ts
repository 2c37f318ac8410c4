import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { addConnection } from '../../src/control/connections/connections.ts';
import { createApiKey, createOrganization } from '../../src/control/organizations.ts';
import type { Warehouse } from '../../src/db/warehouse.ts';
import { landFile } from '../../src/ingest/land-file.ts';
import { findSource } from '../../src/ingest/sources/index.ts';

/** The bundled demo files (fixtures/demo): two sellers' reports of 2026-08-01..10-15, as files, not fetched. */
export const demoFixtures = resolve(fileURLToPath(import.meta.url), '../../../fixtures/demo');

const fixtureConnections = z.array(
  z.object({
    key: z.string(),
    id: z.string().uuid(),
    name: z.string(),
    marketplaceId: z.string(),
    sellerId: z.string(),
  }),
);

/**
 * Lands every bundled demo file for a demo organization and returns it with a new API key; the caller builds.
 * With `copies`, each demo seller's files are landed again for that many more connections of the same marketplace,
 * each a different part of them, so that the connections' rows differ: copy n leaves out every (n + 1)-th file of
 * each source from the n-th on, and the second copy has no unit costs.
 */
export async function landDemoFixtures(
  wh: Warehouse,
  options: { copies?: number } = {},
): Promise<{ organizationId: string; key: string }> {
  const demo = fixtureConnections.parse(JSON.parse(readFileSync(join(demoFixtures, 'connections.json'), 'utf8')));
  const copies = Array.from({ length: options.copies ?? 0 }, (_, i) => i + 1);
  const connections = [
    ...demo.map((c) => ({ ...c, copy: 0 })),
    ...copies.flatMap((n) =>
      demo.map((c) => ({
        ...c,
        copy: n,
        id: `${c.id.slice(0, -4)}${String(n).padStart(2, '0')}${c.id.slice(-2)}`,
        name: `${c.name} (copy ${n})`,
        sellerId: `${c.sellerId}${n}`,
      })),
    ),
  ];
  const organizationId = await createOrganization(wh, { name: 'Demo organization', tokens: 1000 });
  const key = await createApiKey(wh, organizationId);
  for (const c of connections) {
    await addConnection(wh, {
      organizationId,
      id: c.id,
      name: c.name,
      marketplaceId: c.marketplaceId,
      sellerId: c.sellerId,
    });
    const folder = join(demoFixtures, c.key);
    for (const source of readdirSync(folder, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)) {
      const files = readdirSync(join(folder, source))
        .sort()
        .filter((_, i) => c.copy === 0 || i % (c.copy + 1) !== c.copy);
      for (const file of files)
        await landFile(
          wh,
          findSource(source),
          { id: c.id, marketplaceId: c.marketplaceId },
          join(folder, source, file),
        );
    }
    if (c.copy !== 2)
      await landFile(wh, findSource('cogs'), { id: c.id, marketplaceId: c.marketplaceId }, join(folder, 'cogs.csv'));
  }
  return { organizationId, key };
}
