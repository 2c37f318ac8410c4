import type { Generated } from 'kysely';

/** Control-plane tables as kysely sees them (schema `control`, migrations in ./migrations). */
export interface ControlPlane {
  'control.organizations': { id: string; name: string; token_balance: string | number; created_at: string };
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
}

export const connectionTypes = ['SELLER_CENTRAL', 'VENDOR_CENTRAL', 'MKT_ADS'] as const;
export type ConnectionType = (typeof connectionTypes)[number];
