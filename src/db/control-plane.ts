import type { Generated } from 'kysely';
import type { ActionTables, ScaleTables, WebhookTables } from './control-plane-tables.ts';

/** Control-plane tables as kysely sees them (schema `control`, migrations in ./migrations). */
export interface ControlPlane
  extends ExportTables, PipelineTables, ConnectorTables, WebhookTables, ActionTables, ScaleTables {
  'control.organizations': {
    id: string;
    name: string;
    /** null: unmetered */ token_balance: string | number | null;
    created_at: string;
  };
  'control.invitations': {
    id: string;
    organization_id: string;
    token_hash: string;
    account_type: 'SELLER' | 'VENDOR';
    suggested_name: string | null;
    marketplace_id: string | null;
    created_at: string;
    expires_at: string;
    used_at: string | null;
    connection_id: string | null;
  };
  'control.cogs_changes': { file_id: string; connection_id: string; from_date: string };
  'control.vendor_codes': {
    connection_id: string;
    identifier_type: 'ASIN' | 'SKU';
    identifier: string;
    vendor_code: string;
    updated_at: string;
  };
  'control.sqp_asins': { connection_id: string; asin: string; added_at: string };
  'control.sqp_locks': { connection_id: string; editable_at: string };
  'control.api_keys': {
    id: string;
    organization_id: string;
    key_hash: string;
    key_prefix: string;
    created_at: string;
    revoked_at: string | null;
  };
  'control.connections': {
    id: string;
    organization_id: string;
    name: string;
    type: ConnectionType;
    marketplace_id: string;
    seller_id: string | null;
    created_at: string;
    initial_load_stage: 'FIRST_STAGE' | 'SECOND_STAGE' | 'COMPLETE' | null;
  };
  'control.landed_files': {
    id: string;
    connection_id: string;
    source: string;
    sha256: string;
    file_name: string;
    size_bytes: number;
    row_count: number;
    landed_at: string;
  };
  'control.quarantined_files': {
    id: string;
    connection_id: string;
    source: string;
    sha256: string;
    file_name: string;
    kept_at: string;
    line: number | null;
    reason: string;
    refused_at: string;
  };
  'control.cogs': {
    connection_id: string;
    asin: string;
    sku: string;
    cost_currency: string;
    from_date: string;
    cost_item_value: string;
    cost_item_shipping_value: string;
    item_supplier_name: string | null;
    file_id: string | null;
    line_number: number | null;
    updated_at: Generated<string>;
  };
  /** Data files (migration 009); `status` as last written: a passed `expires_at` reads as EXPIRED. */
  'control.data_files': {
    id: string;
    organization_id: string;
    connection_id: string;
    name: string;
    file_group: 'LISTING_IMAGES' | 'APLUS_IMAGES';
    type: 'PNG' | 'TIFF' | 'JPG';
    source: 'API' | 'MCP' | 'DATA' | 'UI';
    status: 'WAITING_FOR_UPLOAD' | 'UPLOADED' | 'EXPIRED' | 'DELETED';
    size_bytes: number | string | null;
    sha256: string | null;
    ttl_hours: number;
    created_at: string;
    uploaded_at: string | null;
    expires_at: string;
    deleted_at: string | null;
  };
}

export type ExportStatus = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'ERROR' | 'BLOCKED_NO_TOKENS';

/** Exports, schedules, usage and settings (migration 003). */
export interface ExportTables {
  'control.exports': {
    id: string;
    organization_id: string;
    source_id: string;
    source_name: string;
    table_name: string;
    seller_or_vendor_ids: string;
    request: string;
    output_type: 'CSV' | 'JSON' | 'PARQUET';
    status: ExportStatus;
    creator: 'API' | 'SCHEDULE' | 'MCP';
    schedule_id: string | null;
    tokens: number | string;
    row_count: number | string | null;
    file_size_bytes: number | string | null;
    file_name: string | null;
    error: string | null;
    created_at: string;
    started_at: string | null;
    /** While IN_PROGRESS: until when its writer holds it (renewed as it runs). */
    lease_until?: string | null;
    completed_at: string | null;
    expires_at: string | null;
  };
  'control.export_schedules': {
    id: string;
    organization_id: string;
    name: string;
    request: string;
    cron: string;
    timezone: string;
    active: boolean;
    relative_period: string | null;
    integrations: string;
    creator: 'API';
    created_at: string;
    updated_at: string;
  };
  'control.usage_records': {
    id: string;
    organization_id: string;
    usage_type: string;
    usage_pool: string;
    specific_usage_type: string;
    tokens: number | string;
    resource_id: string | null;
    used_at: string;
  };
  'control.organization_sources': { organization_id: string; source_id: string; enabled: boolean; updated_at: string };
  'control.settings': { name: string; value: string };
}

export const connectionTypes = ['SELLER_CENTRAL', 'VENDOR_CENTRAL', 'MKT_ADS'] as const;
export type ConnectionType = (typeof connectionTypes)[number];

/** Pipeline runs (migration 004). */
export interface PipelineTables {
  'control.pipeline_runs': {
    id: string;
    pipeline: string;
    trigger: RunTrigger;
    clock: string;
    started_at: string;
    finished_at: string | null;
    status: 'running' | 'success' | 'partial' | 'failed';
    backfill_from: string | null;
    backfill_to: string | null;
    landed_files: Generated<number>;
    published: Generated<boolean>;
    error: string | null;
    errors: Generated<number | null>;
  };
  'control.run_windows': {
    run_id: string;
    pipeline: string;
    connection_id: string;
    table_name: string;
    kind: string;
    stage: 'FIRST_STAGE' | 'SECOND_STAGE' | null;
    local_date: string;
    date_from: string | null;
    date_to: string | null;
    status: 'planned' | 'success' | 'error' | 'skipped';
    row_count: number | null;
    ms: number | null;
    error: string | null;
    retried: Generated<boolean>;
  };
  'control.pipeline_files': { pipeline: string; file_id: string; run_id: string };
  'control.model_inputs': { model: string; fingerprint: string };
  'control.model_sql': { model: string; digest: string };
}

/** A request the live connectors make upstream, from planned to landed (migration 006). */
/**
 * What started a pipeline run: `mktdata run`, the scheduler, the console's "run now", or a connection's new
 * credentials.
 */
export type RunTrigger = 'cli' | 'schedule' | 'console' | 'connected';

export type FetchStatus =
  'planned' | 'creating' | 'requested' | 'downloaded' | 'landed' | 'empty' | 'failed' | 'abandoned' | 'unavailable';

/** Credentials, fetch requests and OAuth states of the live connectors (migration 006). */
export interface ConnectorTables {
  'control.connection_credentials': {
    connection_id: string;
    api: 'sp-api' | 'ads';
    selling_partner_id: string | null;
    profile_id: string | null;
    refresh_token_encrypted: string;
    status: 'active' | 'needs_reauthorization';
    status_reason: string | null;
    created_at: string;
    updated_at: string;
  };
  'control.fetch_requests': {
    id: string;
    run_id: string | null;
    connection_id: string;
    source: string;
    stage: 'FIRST_STAGE' | 'SECOND_STAGE' | null;
    date_from: string | null;
    date_to: string | null;
    request: string;
    upstream_id: string | null;
    status: FetchStatus;
    attempts: Generated<number>;
    retry_at: string | null;
    error: string | null;
    documents: Generated<number>;
    file_name: string | null;
    rows: number | string | null;
    created_at: string;
    requested_at: string | null;
    finished_at: string | null;
  };
  'control.oauth_states': {
    state_hash: string;
    invitation_id: string;
    api: 'sp-api' | 'ads';
    connection_id: string | null;
    marketplace_id: string | null;
    connection_name: string | null;
    created_at: string;
    expires_at: string;
    used_at: string | null;
  };
}
