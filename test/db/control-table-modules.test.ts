import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 56: every control table has one module that all its queries go through (one repository per table, as in
// fastify/demo), so that what a table answers, and the indexes it needs, can be read in one place.

const root = join(import.meta.dirname, '..', '..');

/** Each table behind one module, and that module: a file, or a folder (ending in `/`) for a table with many questions. */
const modules: Record<string, string> = {
  connections: 'src/control/connections/',
  connection_credentials: 'src/connectors/credentials.ts',
  landed_files: 'src/control/landed-files.ts',
  webhook_subscriptions: 'src/webhooks/subscriptions.ts',
  organizations: 'src/control/organizations.ts',
  pipeline_runs: 'src/pipelines/pipeline-runs.ts',
  run_windows: 'src/pipelines/run-windows.ts',
  fetch_requests: 'src/pipelines/fetch/fetch-requests.ts',
  exports: 'src/exports/export-jobs.ts',
  webhook_deliveries: 'src/webhooks/deliveries.ts',
  webhook_events: 'src/webhooks/outbox.ts',
  cogs: 'src/control/cogs.ts',
  settings: 'src/db/settings.ts',
  actions: 'src/actions/action-queue.ts',
  export_schedules: 'src/exports/export-schedules.ts',
  api_keys: 'src/control/organizations.ts',
  connection_access: 'src/actions/settings.ts',
  usage_records: 'src/control/tokens.ts',
  unpublished_changes: 'src/models/changes.ts',
  actions_beta: 'src/actions/settings.ts',
  action_types_enabled: 'src/actions/settings.ts',
  pipeline_files: 'src/pipelines/new-files.ts',
  quarantined_files: 'src/control/quarantined-files.ts',
  invitations: 'src/control/invitations.ts',
  schedule_firings: 'src/control/schedule-firings.ts',
  shard_leases: 'src/control/shard-leases.ts',
  shard_runs: 'src/scale/shard-runs.ts',
  cogs_changes: 'src/control/cogs.ts',
  connection_shards: 'src/control/shard-assignment.ts',
  data_files: 'src/files/data-files.ts',
  model_inputs: 'src/models/model-inputs.ts',
  model_sql: 'src/models/model-inputs.ts',
  oauth_states: 'src/connectors/oauth.ts',
  organization_sources: 'src/exports/export-source.ts',
  rate_buckets: 'src/api/rate-limit.ts',
  sqp_asins: 'src/control/sqp-asins.ts',
  sqp_locks: 'src/control/sqp-asins.ts',
  vendor_codes: 'src/control/vendor-codes.ts',
  workers: 'src/scale/shard-worker.ts',
};

/**
 * Queries that join a table from another table's module: they live in the module of the table they mainly answer
 * about. Each entry is a table and a file that may name it besides the table's own module.
 */
const joins: { table: string; file: string; why: string }[] = [
  { table: 'connections', file: 'src/control/organizations.ts', why: 'listOrganizations counts their connections' },
  { table: 'connections', file: 'src/connectors/credentials.ts', why: 'a credential is read with its marketplace' },
  {
    table: 'connection_credentials',
    file: 'src/control/connections/load-stages.ts',
    why: 'a first load waits only for connections with credentials',
  },
  {
    table: 'webhook_subscriptions',
    file: 'src/control/connections/connections.ts',
    why: 'which connections some subscription receives events of',
  },
  {
    table: 'webhook_subscriptions',
    file: 'src/webhooks/outbox.ts',
    why: 'an event is kept only when some subscription matches it',
  },
  {
    table: 'pipeline_files',
    file: 'src/control/landed-files.ts',
    why: 'the files a pipeline has not taken in are a question about the landed files',
  },
  {
    table: 'webhook_events',
    file: 'src/webhooks/deliveries.ts',
    why: "a delivery is read with its event's type, order and body, and a replay redelivers a subscription's events",
  },
  {
    table: 'webhook_subscriptions',
    file: 'src/webhooks/deliveries.ts',
    why: 'appended events are delivered to the subscriptions that match them',
  },
  {
    table: 'organizations',
    file: 'src/control/connections/connections.ts',
    why: 'the console lists connections by organization',
  },
  {
    table: 'pipeline_runs',
    file: 'src/pipelines/run-windows.ts',
    why: "the planner's history and a table's freshness are windows of some runs (since a time, published)",
  },
  {
    table: 'run_windows',
    file: 'src/pipelines/pipeline-runs.ts',
    why: 'the console lists the runs that built windows of a scope, with their counts',
  },
];

/**
 * Files that name tables without querying them one by one: the migrations and the kysely schema declare them; the
 * schema files name every table.
 */
const declaring = /^src\/db\/(migrations\/|control-plane(-tables)?\.ts$)/;

/**
 * Lines that only list a table for a query made over a whole list (a shard's replicated tables, a removed
 * connection's rows in every table): `'control.x',` alone, or `{ table: 'control.x', … }`.
 */
const tableListEntry = /^\s*('control\.[a-z_]+',|\{ table: 'control\.[a-z_]+',.*\},?)\s*$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

/** Every file that names each control table in code (comments and table lists left out), by table. */
function filesByTable(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of sourceFiles(join(root, 'src')).filter((f) => !declaring.test(f))) {
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      if (/^\s*(\/\/|\/\*|\*)/.test(line) || tableListEntry.test(line)) continue;
      for (const [, table] of line.replace(/\s\/\/\s.*$/, '').matchAll(/\bcontrol\.([a-z_]+)\b/g)) {
        found.set(table!, (found.get(table!) ?? new Set()).add(file));
      }
    }
  }
  return found;
}

/** Whether `file` is the module, or in it when the module is a folder. */
const inModule = (file: string, module: string) => (module.endsWith('/') ? file.startsWith(module) : file === module);

describe('control table modules', () => {
  const found = filesByTable();

  it('queries each table behind one module only from that module, or from a join listed with its reason', () => {
    const strays = Object.entries(modules).flatMap(([table, module]) =>
      [...(found.get(table) ?? [])]
        .filter((file) => !inModule(file, module) && !joins.some((j) => j.table === table && j.file === file))
        .map((file) => `control.${table} in ${file} (its module is ${module})`),
    );
    expect(strays).toEqual([]);
  });

  it('knows the module of every table the sources query (a new table gets its module from the start)', () => {
    expect([...found.keys()].filter((t) => !(t in modules))).toEqual([]);
  });

  it('lists only joins that are still there', () => {
    const gone = joins.filter((j) => !found.get(j.table)?.has(j.file)).map((j) => `${j.table} in ${j.file}`);
    expect(gone).toEqual([]);
  });
});
