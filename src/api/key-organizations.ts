import type { ControlStore } from '../db/control-store.ts';
import { keyRevocations, organizationOfKey } from '../control/organizations.ts';

/**
 * The organization of a valid API key (by its hash, `hashApiKey`), remembered for a minute: a key-protected request
 * (a refused one included) then costs no control-plane query. A key revoked in this process (`mktdata keys revoke`
 * is handed to the running server) is forgotten at once; one revoked elsewhere (another API replica of a scaled-out
 * install) within the minute. Unknown keys are not remembered.
 */
export function keyOrganizations(wh: ControlStore): {
  organizationOf: (keyHash: string) => Promise<string | undefined>;
  close(): void;
} {
  const known = new Map<string, { organizationId: Promise<string | undefined>; until: number }>();
  const forget = (hash: string) => known.delete(hash);
  keyRevocations.on('revoked', forget);
  const lookUp = async (hash: string) => {
    const organizationId = await organizationOfKey(wh.db, hash);
    if (organizationId === undefined) known.delete(hash);
    return organizationId;
  };
  const organizationOf = (hash: string) => {
    const hit = known.get(hash);
    if (hit && hit.until > Date.now()) return hit.organizationId;
    if (known.size >= 10_000) known.clear();
    // Requests with the same key arriving together share one lookup.
    const organizationId = lookUp(hash);
    known.set(hash, { organizationId, until: Date.now() + 60_000 });
    organizationId.catch(() => known.delete(hash));
    return organizationId;
  };
  return { organizationOf, close: () => keyRevocations.off('revoked', forget) };
}
