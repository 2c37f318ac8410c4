import type { ActionStatus } from '../vocabulary/action-types.ts';

// Control-plane tables, continued (src/db/control-plane.ts composes them into ControlPlane).

export interface WebhookTables {
  'control.webhook_subscriptions': {
    id: string;
    organization_id: string;
    url: string;
    message_types: string;
    seller_or_vendor_ids: string | null;
    secret: string;
    created_at: string;
    disabled_at: string | null;
    disabled_reason: string | null;
    deleted_at: string | null;
  };
  'control.webhook_events': {
    id: string;
    seq: number | string;
    organization_id: string;
    connection_id: string | null;
    message_type: string;
    ordering_key: string | null;
    dedupe_key: string | null;
    body: string;
    occurred_at: string;
    emitted_at: string;
    batch: string | null;
  };
  'control.webhook_deliveries': {
    id: string;
    event_id: string;
    subscription_id: string | null;
    url: string;
    status: 'PENDING' | 'DELIVERED' | 'FAILED' | 'CANCELED';
    attempts: number;
    next_attempt_at: string;
    created_at: string;
    last_attempt_at: string | null;
    last_status: number | null;
    last_error: string | null;
    delivered_at: string | null;
  };
}

export interface ActionTables {
  'control.actions_beta': { organization_id: string; since: string };
  'control.action_types_enabled': { organization_id: string; type: string; enabled_at: string };
  'control.connection_access': { connection_id: string; access_level: 'READ' | 'READ_AND_WRITE'; updated_at: string };
  'control.actions': {
    id: string;
    organization_id: string;
    connection_id: string;
    type: string;
    creator: 'API' | 'MCP' | 'SYSTEM';
    status: ActionStatus;
    details: string;
    result: string | null;
    error_status: number | null;
    error_code: string | null;
    error_message: string | null;
    external_id: string | null;
    next_check_at: string | null;
    created_at: string;
    updated_at: string;
  };
}

/**
 * Scale-out: workers alive, shard leases and assignments, API rate-limit buckets shared by replicas, schedule slots
 * fired.
 */
export interface ScaleTables {
  'control.shard_leases': { shard: string; owner: string; token: string | number; expires_at: string };
  'control.connection_shards': { connection_id: string; shard: string; assigned_at: string };
  'control.rate_buckets': { key: string; tokens: number; at_ms: string | number; granted: boolean };
  'control.schedule_firings': { schedule_id: string; slot: string; fired_at: string };
  'control.workers': { id: string; seen_at: string };
  'control.shard_runs': {
    id: string;
    run_id: string | null;
    job_id: string | null;
    shard: string;
    pipeline: string;
    worker: string;
    token: string | number;
    started_at: string;
    finished_at: string | null;
    status: 'running' | 'success' | 'partial' | 'failed' | 'fenced' | 'abandoned';
    windows: number | null;
    error: string | null;
  };
}
