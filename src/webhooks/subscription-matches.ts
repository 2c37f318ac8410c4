/**
 * SQL: subscription `s` receives event `e` (same organization, a type it wants, a seller it wants; live). In a file
 * of its own so that the deliveries module, which subscriptions.ts uses, matches with it too.
 */
export const matches = `s.organization_id = e.organization_id and s.deleted_at is null and s.disabled_at is null
  and list_contains(from_json(s.message_types, '["VARCHAR"]'), e.message_type)
  and (s.seller_or_vendor_ids is null or list_contains(from_json(s.seller_or_vendor_ids, '["VARCHAR"]'), e.connection_id))`;
