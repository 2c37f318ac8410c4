/** GET /api/v1/spec/service_api.md: instructions for agents and scripts calling the API. */
export function serviceApiMarkdown(limits: { requestsPerSecond: number }): string {
  return `# mktdata service API: instructions for agents

Base path \`/api/v1\`. Send the organization API key in the header \`service-api-key\` on every
endpoint except \`/spec/*\` (not \`X-Api-Key\`, not \`Authorization\`). Bodies are JSON.

## The flow

1. **Sellers**: \`GET /api/v1/util/sellers-and-vendors\` lists the connected accounts; keep the
   \`sellerOrVendorId\` of each one you need (filter with \`query\` or \`marketplaceCountryCode\`).
2. **Sources**: \`GET /api/v1/exports/sources?sellerOrVendorIds=<id>\` lists the tables available to
   those accounts, with their columns. Search the catalog without a key at
   \`GET /api/v1/spec/data-scheme?query=<one keyword>\` (or read \`/api/v1/spec/data-scheme.md\`).
   Prefer the recommended sources; \`mkt_profit_by_date\` and \`mkt_profit_by_sku_and_date\` answer
   profit questions.
3. **Export**: \`POST /api/v1/exports\` with \`{ "sellerOrVendorIds": [...], "sourceId": "<64-hex id or its first 10 characters>",
   "columns": [...], "from": "YYYY-MM-DD", "to": "YYYY-MM-DD", "outputType": "CSV" | "JSON" | "PARQUET" }\`.
   \`from\`/\`to\` are required exactly when the source has \`requiresDatePeriod\`. It answers 202 with the export.
   Let the export do the work rather than downloading everything: \`filters\`
   (\`{ "combinator": "and" | "or", "rules": [{ "field", "operator", "value", "not" }] }\`), \`groupBy\`,
   \`aggregations\` (\`[{ "column", "aggregation": "sum" | "avg" | "count" | "countDistinct" | "min" | "max", "alias" }]\`),
   \`having\`, \`dateInterval\` (\`DAY\` | \`WEEK\` | \`MONTH\`), \`orderByColumn\`, \`limit\`; the ExportRequest schema
   in \`/api/v1/openapi.json\` has every field.
4. **Poll**: \`GET /api/v1/exports/{exportId}/raw\`. 202 means still processing: wait the interval its
   message recommends and ask again. 410 (file expired) and 422 (failed, or no tokens) mean stop:
   create a new export if needed.
5. **Raw**: a 302 answer's \`Location\` is a signed, expiring URL of this server; fetch it without the key.

## Webhooks

\`POST /api/v1/webhooks\` with \`{ "url": "https://…", "messageTypes": [...], "sellerOrVendorIds": [...] }\` (both
lists optional: every type that is not \`highVolume\`, every seller) subscribes a receiver to the messages of
\`GET /api/v1/spec/webhook-scheme\`; the answer holds the signing \`secret\` once. Each delivery is a POST of
\`{ "messageType", "summary", "details", "occurredAt" }\` with the Standard Webhooks headers \`webhook-id\`,
\`webhook-timestamp\` and \`webhook-signature\` (\`v1,\` + base64 HMAC-SHA256 of \`id.timestamp.body\` keyed by the
base64 after \`whsec_\`). Verify it, answer 2xx within 10 seconds, and drop a \`webhook-id\` seen before: delivery
is at least once, retried with backoff for 24 hours, in order per order id. \`GET /api/v1/webhooks\`,
\`DELETE /api/v1/webhooks/{id}\`, \`GET /api/v1/webhooks/{id}/deliveries\` list, remove and audit them.

## Actions (private beta)

Without the beta every \`/api/v1/actions\` endpoint answers 501: do not retry. With it, read
\`GET /api/v1/actions/types\` (which types this server runs, their access mode) and the JSON Schema of a
type's \`details\` at \`GET /api/v1/actions/types/{type}/schema\` before building a request. Validate first with
\`POST /api/v1/actions\` \`{ "type", "sellerOrVendorId", "dryRun": true, "details" }\` (200 \`VALIDATED\` with
\`validation.issues\`), then start it with \`dryRun: false\` (202 \`{ actionId, status: "PENDING" }\`, 1 token) and
poll \`GET /api/v1/actions/{actionId}\` until the status is final (\`result\` or \`error\`). 402 and 412 are final;
429 means too many live actions: combine operations into one request or wait.

## Limits

- ${limits.requestsPerSecond} requests per second per organization over the key-protected endpoints; a 429 carries
  \`Retry-After\` in whole seconds: wait that long.
- Lists are paginated with \`page\` (from 1) and \`pageSize\` (exports at most 25, sellers and vendors at most 100).
- Array query parameters repeat the name: \`sellerOrVendorIds=a&sellerOrVendorIds=b\`.

## Errors

Every response has a \`service-api-request-id\` header; quote it when reporting a problem. Errors are
\`{ "statusCode", "error", "code", "message", "requestId" }\`, and 400 answers add \`issues\` naming
each invalid field. 401: missing or unknown key. 402: no tokens left. 404: unknown, or belongs to
another organization. 429: too many requests. Do not retry a 4xx unchanged, except 429 after
\`Retry-After\` and 202 on \`/raw\` after the recommended interval.
`;
}
