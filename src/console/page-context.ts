import type { ControlStore } from '../db/control-store.ts';
import type { Home } from '../home.ts';
import type { ConsoleScope } from './scope.ts';
import { connectionsWithOrganization } from '../control/connections/connections.ts';

/**
 * What a console page is rendered from: the control plane, the home (published snapshot), whose view, and the clock.
 */
export interface PageContext {
  wh: ControlStore;
  home: Home;
  scope: ConsoleScope;
  now: Date;
  /** The pipelines a "run now" can start, when this server runs them (`mktdata serve`); else undefined. */
  pipelines?: string[];
}

/** The ids and names of the connections a scope sees (every connection for the operator). */
export async function scopeConnections(
  ctx: PageContext,
): Promise<{ id: string; name: string; organization: string }[]> {
  const scope = ctx.scope.operator ? undefined : ctx.scope.organizationId;
  const rows = await connectionsWithOrganization(ctx.wh.db, scope);
  return rows.map((c) => ({ id: c.id, name: c.name, organization: c.organization }));
}

/** `[id]` when a list would be empty: SQL `in ()` is not valid, and no connection has the id ''. */
export const nonEmpty = (ids: string[]): string[] => (ids.length > 0 ? ids : ['']);
