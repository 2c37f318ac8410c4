import type { ControlStore } from '../db/control-store.ts';

/**
 * The organization of a valid API key (by its hash, `hashApiKey`), remembered for a minute: a key-protected request (a refused one included)
 * then costs no control-plane query. Keys are created and revoked only by the CLI, which cannot open the home while
 * `serve` holds it, so a remembered key cannot have been revoked meanwhile; unknown keys are not remembered.
 */
export function keyOrganizations(wh: ControlStore): (keyHash: string) => Promise<string | undefined> {
  const known = new Map<string, { organizationId: Promise<string | undefined>; until: number }>();
  const lookUp = async (hash: string) => {
    const found = await wh.db
      .selectFrom('control.api_keys')
      .select('organization_id')
      .where('key_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!found) known.delete(hash);
    return found?.organization_id;
  };
  return (hash) => {
    const hit = known.get(hash);
    if (hit && hit.until > Date.now()) return hit.organizationId;
    if (known.size >= 10_000) known.clear();
    // Requests with the same key arriving together share one lookup.
    const organizationId = lookUp(hash);
    known.set(hash, { organizationId, until: Date.now() + 60_000 });
    organizationId.catch(() => known.delete(hash));
    return organizationId;
  };
}
