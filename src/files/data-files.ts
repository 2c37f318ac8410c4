import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { ControlPlane } from '../db/control-plane.ts';
import type { Warehouse } from '../db/warehouse.ts';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';
import { ownConnection } from '../control/connections/connections.ts';

export type DataFileRow = ControlPlane['control.data_files'];
export type FileType = DataFileRow['type'];
export type FileStatus = DataFileRow['status'];

export const fileGroups = ['LISTING_IMAGES', 'APLUS_IMAGES'] as const satisfies readonly DataFileRow['file_group'][];
export const fileTypes = ['PNG', 'TIFF', 'JPG'] as const satisfies readonly FileType[];
export const fileStatuses = [
  'WAITING_FOR_UPLOAD',
  'UPLOADED',
  'EXPIRED',
  'DELETED',
] as const satisfies readonly FileStatus[];
export const fileSources = ['API', 'MCP', 'DATA', 'UI'] as const satisfies readonly DataFileRow['source'][];

/** The largest file accepted, in bytes (20 MiB), by upload or inline base64. */
export const maxFileBytes = 20 * 1024 * 1024;

/** Media type and file extension of each file type. */
export const fileFormats: Record<FileType, { contentType: string; extension: string }> = {
  PNG: { contentType: 'image/png', extension: 'png' },
  JPG: { contentType: 'image/jpeg', extension: 'jpg' },
  TIFF: { contentType: 'image/tiff', extension: 'tif' },
};

/** The leading bytes that identify each type (TIFF: little- or big-endian). */
const magicBytes: Record<FileType, Buffer[]> = {
  PNG: [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  JPG: [Buffer.from([0xff, 0xd8, 0xff])],
  TIFF: [Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.from([0x4d, 0x4d, 0x00, 0x2a])],
};

/** The type a content's first bytes identify, if any. */
export const detectType = (bytes: Buffer): FileType | undefined =>
  fileTypes.find((type) => magicBytes[type].some((magic) => bytes.subarray(0, magic.length).equals(magic)));

/** Refuses content whose first bytes are not those of the declared type, naming what they are. */
export function checkContent(where: string, type: FileType, bytes: Buffer): void {
  const found = detectType(bytes);
  if (found === type) return;
  throw new MktdataError('ERR_FILE_TYPE_MISMATCH', {
    where,
    type,
    found: found ? `a ${found} file` : 'not a PNG, JPG or TIFF file',
  });
}

/** A file's status at a moment: waiting or uploaded past its ttl reads as EXPIRED. */
export const statusAt = (row: DataFileRow, now: Date): FileStatus =>
  (row.status === 'WAITING_FOR_UPLOAD' || row.status === 'UPLOADED') && new Date(row.expires_at) <= now
    ? 'EXPIRED'
    : row.status;

/** The same rule in SQL, for list filters. */
const statusSql = (now: Date) =>
  sql<FileStatus>`case when status in ('WAITING_FOR_UPLOAD', 'UPLOADED') and expires_at <= cast(${now.toISOString()} as timestamptz) then 'EXPIRED' else status end`;

/** Where a file's bytes live: by id, never by the client's name. */
const bytesPath = (home: Home, row: Pick<DataFileRow, 'id' | 'type'>) =>
  join(home.files, `${row.id}.${fileFormats[row.type].extension}`);

/** Writes bytes under a temporary name, so that no partly written file is ever visible; returns that name. */
function writeTemp(home: Home, id: string, bytes: Buffer): string {
  mkdirSync(home.files, { recursive: true });
  const temp = join(home.files, `${id}.${randomUUID()}.part`);
  try {
    writeFileSync(temp, bytes);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return temp;
}

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What CreateDataFileRequest gives, checked by its schema. */
export interface NewDataFile {
  name: string;
  group: DataFileRow['file_group'];
  type: FileType;
  sellerOrVendorId: string;
  ttlHours: number;
  contentBase64?: string;
}

/**
 * Creates a file of one of the organization's connections: WAITING_FOR_UPLOAD, or UPLOADED at once with inline
 * content (checked against its type first: a refused content stores nothing).
 */
export async function createDataFile(
  wh: Warehouse,
  home: Home,
  organizationId: string,
  input: NewDataFile,
  now: Date,
  source: 'API' | 'MCP' = 'API',
): Promise<DataFileRow> {
  await requireConnection(wh.db, organizationId, input.sellerOrVendorId);
  const bytes = input.contentBase64 === undefined ? undefined : Buffer.from(input.contentBase64, 'base64');
  if (bytes) checkContent('contentBase64', input.type, bytes);
  const row: DataFileRow = {
    id: randomUUID(),
    organization_id: organizationId,
    connection_id: input.sellerOrVendorId,
    name: input.name,
    file_group: input.group,
    type: input.type,
    source,
    status: bytes ? 'UPLOADED' : 'WAITING_FOR_UPLOAD',
    size_bytes: bytes?.length ?? null,
    sha256: bytes ? digest(bytes) : null,
    ttl_hours: input.ttlHours,
    created_at: now.toISOString(),
    uploaded_at: bytes ? now.toISOString() : null,
    expires_at: new Date(now.getTime() + input.ttlHours * 3_600_000).toISOString(),
    deleted_at: null,
  };
  if (bytes) renameSync(writeTemp(home, row.id, bytes), bytesPath(home, row));
  try {
    await wh.db.insertInto('control.data_files').values(row).execute();
  } catch (error) {
    if (bytes) rmSync(bytesPath(home, row), { force: true });
    throw error;
  }
  return row;
}

/** The organization's connection of that id, or ERR_CONNECTION_NOT_FOUND (another organization's reads as unknown). */
async function requireConnection(db: Kysely<ControlPlane>, organizationId: string, id: string): Promise<void> {
  const found = await ownConnection(db, organizationId, id);
  if (!found) throw new MktdataError('ERR_CONNECTION_NOT_FOUND', { id });
}

/** A file by id, whatever its organization (a signed link names it), or ERR_FILE_NOT_FOUND. */
export async function findDataFile(wh: Warehouse, id: string): Promise<DataFileRow> {
  const row = await wh.db.selectFrom('control.data_files').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new MktdataError('ERR_FILE_NOT_FOUND', { id });
  return row;
}

/** The organization's file of that id, or ERR_FILE_NOT_FOUND (another organization's reads as not found). */
export async function requireDataFile(wh: Warehouse, organizationId: string, id: string): Promise<DataFileRow> {
  const row = await findDataFile(wh, id);
  if (row.organization_id !== organizationId) throw new MktdataError('ERR_FILE_NOT_FOUND', { id });
  return row;
}

/** Stores the one upload of a waiting file, checked against its type; any later upload answers 409. */
export async function uploadDataFile(
  wh: Warehouse,
  home: Home,
  id: string,
  bytes: Buffer,
  now: Date,
): Promise<DataFileRow> {
  const row = await findDataFile(wh, id);
  const status = statusAt(row, now);
  if (status !== 'WAITING_FOR_UPLOAD') throw new MktdataError('ERR_FILE_NOT_WAITING', { id, status });
  checkContent('upload', row.type, bytes);
  const temp = writeTemp(home, id, bytes);
  const uploaded = {
    status: 'UPLOADED' as const,
    size_bytes: bytes.length,
    sha256: digest(bytes),
    uploaded_at: now.toISOString(),
  };
  // Claim the row before the bytes become visible: of two uploads at once, only the winner's bytes are kept.
  const claimed = await wh.db
    .updateTable('control.data_files')
    .set(uploaded)
    .where('id', '=', id)
    .where('status', '=', 'WAITING_FOR_UPLOAD')
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (claimed.numUpdatedRows === 0n) {
    rmSync(temp, { force: true });
    throw new MktdataError('ERR_FILE_NOT_WAITING', { id, status: statusAt(await findDataFile(wh, id), now) });
  }
  // Synchronous, so that no delete can run between the claim and the bytes appearing.
  renameSync(temp, bytesPath(home, row));
  return { ...row, ...uploaded };
}

/** Filters of GET /files (spec document 000, "Data files"). */
export interface DataFileFilter {
  group?: DataFileRow['file_group'];
  query?: string;
  statuses?: FileStatus[];
  types?: FileType[];
  sources?: DataFileRow['source'][];
  sellerOrVendorIds?: string[];
  page: number;
  pageSize: number;
}

/** One page of the organization's files matching the filters, newest first, and how many match in all. */
export async function listDataFiles(
  wh: Warehouse,
  organizationId: string,
  filter: DataFileFilter,
  now: Date,
): Promise<{ rows: DataFileRow[]; totalCount: number }> {
  const { group, query, statuses, types, sources, sellerOrVendorIds, page, pageSize } = filter;
  let base = wh.db.selectFrom('control.data_files').where('organization_id', '=', organizationId);
  // A given array is never empty: the query schema turns every parameter into at least one item.
  if (group) base = base.where('file_group', '=', group);
  // strpos, not DuckDB's contains: the same SQL runs on a scaled-out install's PostgreSQL.
  if (query) base = base.where(sql<boolean>`strpos(lower(name), lower(${query})) > 0`);
  if (statuses) base = base.where(statusSql(now), 'in', statuses);
  if (types) base = base.where('type', 'in', types);
  if (sources) base = base.where('source', 'in', sources);
  if (sellerOrVendorIds) base = base.where('connection_id', 'in', sellerOrVendorIds);
  const total = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows, totalCount: Number(total.n) };
}

/** Marks the organization's file DELETED and removes its bytes; the row stays, and deleting again changes nothing. */
export async function deleteDataFile(
  wh: Warehouse,
  home: Home,
  organizationId: string,
  id: string,
  now: Date,
): Promise<void> {
  const row = await requireDataFile(wh, organizationId, id);
  if (row.status === 'DELETED') return;
  await wh.db
    .updateTable('control.data_files')
    .set({ status: 'DELETED', deleted_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
  rmSync(bytesPath(home, row), { force: true });
}

/** The path of an UPLOADED file's bytes, or ERR_FILE_NOT_DOWNLOADABLE naming its status. */
export function requireDownloadable(home: Home, row: DataFileRow, now: Date): string {
  const status = statusAt(row, now);
  if (status !== 'UPLOADED') throw new MktdataError('ERR_FILE_NOT_DOWNLOADABLE', { id: row.id, status });
  return bytesPath(home, row);
}

/** Marks files past their ttl EXPIRED and removes their bytes (the hourly sweep of `serve`); returns how many. */
export async function sweepFiles(wh: Warehouse, home: Home, now: Date): Promise<number> {
  const due = await wh.db
    .selectFrom('control.data_files')
    .select(['id', 'type'])
    .where('status', 'in', ['WAITING_FOR_UPLOAD', 'UPLOADED'])
    .where('expires_at', '<=', now.toISOString())
    .execute();
  if (!due.length) return 0;
  await wh.db
    .updateTable('control.data_files')
    .set({ status: 'EXPIRED' })
    .where(
      'id',
      'in',
      due.map((r) => r.id),
    )
    .where('status', 'in', ['WAITING_FOR_UPLOAD', 'UPLOADED'])
    .execute();
  for (const row of due) rmSync(bytesPath(home, row), { force: true });
  return due.length;
}
