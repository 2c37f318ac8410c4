import { catalogSources, type CatalogSource } from '../catalog/catalog.ts';
import { loadMarketplaces } from '../control/marketplaces.ts';
import { requireOrganization } from '../control/organizations.ts';
import type { ControlStore } from '../db/control-store.ts';
import { MktdataError } from '../errors.ts';
import { loadModels } from '../models/load-models.ts';
import { buildExportQuery, type ExportConnection, type ExportQuery, type ExportTable } from './export-query.ts';
import type { ExportRequest } from './export-request.ts';
import { ownConnectionsAmong } from '../control/connections/connections.ts';

/** A connection as an export needs it: owner, account type and marketplace. */
export interface ExportAccount {
  id: string;
  organizationId: string;
  type: string;
  marketplaceId: string;
}

/** What an accepted request resolves to: its catalog source, the checked query and the connections it covers. */
export interface ResolvedExport {
  source: CatalogSource;
  query: ExportQuery;
  connections: ExportConnection[];
}

/** The catalog source a request names by 64-hex id, 10-hex id prefix or table name. */
export function findExportSource(request: Pick<ExportRequest, 'sourceId' | 'tableName'>): CatalogSource {
  const sources = catalogSources();
  const wanted = request.sourceId ?? request.tableName ?? '';
  const found = request.sourceId
    ? sources.filter((s) => s.id.startsWith(request.sourceId!))
    : sources.filter((s) => s.tableName === request.tableName);
  if (found.length !== 1) throw new MktdataError('ERR_SOURCE_NOT_FOUND', { source: wanted });
  return found[0]!;
}

/**
 * Whether a connection of this type has the source's data. Advertising reports land on the seller or vendor
 * connection they belong to, so MKT_ADS tables are available to every connection.
 */
export const availableTo = (source: CatalogSource, connectionType: string) =>
  source.type === 'MKT_ADS' || source.type === connectionType;

/** The published form of a catalog table. */
function exportTable(source: CatalogSource): ExportTable {
  const model = loadModels().find((m) => m.schema === 'marts' && m.name === source.tableName)!;
  const common = model.config.columns.slice(0, 6).map((c) => c.name);
  return { name: model.name, columns: model.config.columns, requiresDatePeriod: source.requiresDatePeriod, common };
}

/** Whether an organization may export a source: its own switch, else the catalog's default. */
export async function sourceEnabled(wh: ControlStore, organizationId: string, source: CatalogSource): Promise<boolean> {
  return (await sourcesEnabled(wh, organizationId))(source);
}

/**
 * Whether each source is enabled for an organization: its settings read in one query, for answers that list sources.
 */
export async function sourcesEnabled(
  wh: ControlStore,
  organizationId: string,
): Promise<(source: CatalogSource) => boolean> {
  const rows = await wh.db
    .selectFrom('control.organization_sources')
    .select(['source_id', 'enabled'])
    .where('organization_id', '=', organizationId)
    .execute();
  const settings = new Map(rows.map((r) => [r.source_id, r.enabled]));
  return (source) => settings.get(source.id) ?? source.enabled;
}

/**
 * Checks a request against the catalog and the given connections (every id must be among them) and builds its
 * query; every refusal is a 4xx MktdataError naming the field.
 */
export function resolveExport(request: ExportRequest, accounts: ExportAccount[]): ResolvedExport {
  const source = findExportSource(request);
  const marketplaces = loadMarketplaces();
  const connections = [...new Set(request.sellerOrVendorIds)].map((id) => {
    const account = accounts.find((a) => a.id === id);
    if (!account) throw new MktdataError('ERR_CONNECTION_NOT_FOUND', { id });
    if (!availableTo(source, account.type)) {
      throw new MktdataError('ERR_SOURCE_NOT_AVAILABLE', {
        table: source.tableName,
        type: source.type,
        id,
        connectionType: account.type,
      });
    }
    return { id, timezone: marketplaces.get(account.marketplaceId)?.timezone ?? 'UTC' };
  });
  return { source, query: buildExportQuery(request, exportTable(source), connections), connections };
}

/** The organization's connections among `ids` (another organization's are left out, so they read as not found). */
export async function organizationAccounts(
  wh: ControlStore,
  organizationId: string,
  ids: string[],
): Promise<ExportAccount[]> {
  const rows = await ownConnectionsAmong(wh.db, organizationId, ids);
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    type: r.type,
    marketplaceId: r.marketplace_id,
  }));
}

/** Switches a source on or off for an organization (`mktdata sources enable|disable`). */
export async function setSourceEnabled(
  wh: ControlStore,
  organizationId: string,
  tableName: string,
  enabled: boolean,
): Promise<CatalogSource> {
  await requireOrganization(wh, organizationId);
  const source = findExportSource({ tableName });
  await wh.db
    .deleteFrom('control.organization_sources')
    .where('organization_id', '=', organizationId)
    .where('source_id', '=', source.id)
    .execute();
  await wh.db
    .insertInto('control.organization_sources')
    .values({ organization_id: organizationId, source_id: source.id, enabled, updated_at: new Date().toISOString() })
    .execute();
  return source;
}
