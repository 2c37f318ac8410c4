import { createHash } from 'node:crypto';
import type { FlatColumn } from '../../flat-file.ts';
import type { JsonRecord } from '../../json-records.ts';
import { RefusedFile } from '../../source.ts';

/** The raw columns of a notification; metadata and payload are JSON text, `sellerKey` the payload's seller id. */
export const notificationColumns: FlatColumn[] = [
  { name: 'notificationId', type: 'text', required: 'value' },
  { name: 'notificationType', type: 'text', required: 'value' },
  { name: 'eventTime', type: 'timestamp', required: 'value' },
  { name: 'payloadVersion', type: 'text' },
  { name: 'notificationMetadata', type: 'text' },
  { name: 'payload', type: 'text', required: 'value' },
  { name: 'sellerKey', type: 'text' },
];

const isObject = (value: unknown): value is JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const absent = (value: unknown) => value === undefined || value === null;
const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const refuse = (n: number, field: string, why: string) => new RefusedFile(n, `record ${n}: ${field} ${why}`);

/** Envelope fields, PascalCase (most types) and camelCase (REPORT_PROCESSING_FINISHED, ITEM_*_EVENT_CHANGE, …). */
const envelope = {
  type: ['NotificationType', 'notificationType'],
  eventTime: ['EventTime', 'eventTime'],
  payloadVersion: ['PayloadVersion', 'payloadVersion'],
  payload: ['Payload', 'payload'],
  metadata: ['NotificationMetadata', 'notificationMetadata'],
  id: ['NotificationId', 'notificationId'],
} as const;
const envelopeKeys = new Set<string>(Object.values(envelope).flat());
const columnNames = new Set(notificationColumns.map((c) => c.name));

/** Where the payload names its seller (docs/design/live-apis.md §5), and its marketplace. */
const sellerKeys = ['SellerId', 'sellerId', 'SellingPartnerId', 'MerchantId', 'accountId'];
export const marketplaceKeys = ['MarketplaceId', 'marketplaceId'];

/**
 * The first string value of one of `keys` in the payload, looked for breadth-first in the payload object and the
 * objects below it, two levels down (array elements count as their array's level):
 * `Payload.SellerId`, `Payload.AnyOfferChangedNotification.SellerId`, `payload.itemInventoryEventChanges[0].accountId`,
 * `Payload.TransactionUpdateNotification.SellingPartnerMetadata.SellingPartnerId`. The notification's own seller sits
 * above any other seller it names (ANY_OFFER_CHANGED's competing `Offers[].SellerId`).
 */
export function findInPayload(payload: JsonRecord, keys: string[]): string | null {
  let level: JsonRecord[] = [payload];
  for (let depth = 0; depth <= 2 && level.length > 0; depth++) {
    for (const object of level) {
      const key = keys.find((k) => typeof object[k] === 'string' && object[k] !== '');
      if (key) return object[key] as string;
    }
    level = level.flatMap((object) =>
      Object.values(object)
        .flatMap((v) => (Array.isArray(v) ? v : [v]))
        .filter(isObject),
    );
  }
  return null;
}

/** The seller id a payload names; a merchant account id (`amzn1.merchant.o.<sellerId>`) gives its seller id. */
export const sellerKeyOf = (payload: JsonRecord) =>
  findInPayload(payload, sellerKeys)?.replace(/^amzn1\.merchant\.o\./, '') ?? null;

/** Envelope field `names` of message `m`: the value, and the name as this message spells it. */
function field(m: JsonRecord, names: readonly [string, string], camel: boolean): [unknown, string] {
  return [m[names[0]] ?? m[names[1]], names[camel ? 1 : 0]];
}

/** One notification message (record `n`), checked, as the row it lands as. */
function notificationRecord(message: unknown, n: number): JsonRecord {
  if (!isObject(message)) throw new RefusedFile(n, `record ${n} is not an object`);
  const camel =
    !absent(message.notificationType ?? message.payload ?? message.eventTime) &&
    absent(message.NotificationType ?? message.Payload ?? message.EventTime);
  const [type, typeName] = field(message, envelope.type, camel);
  if (absent(type) || type === '') throw refuse(n, typeName, 'is missing');
  if (typeof type !== 'string') throw refuse(n, typeName, 'is not a string');
  const [eventTime, eventTimeName] = field(message, envelope.eventTime, camel);
  if (absent(eventTime)) throw refuse(n, eventTimeName, 'is missing');
  if (!(typeof eventTime === 'string' && isoDateTime.test(eventTime) && Number.isFinite(Date.parse(eventTime)))) {
    throw refuse(n, eventTimeName, `${JSON.stringify(eventTime)} is not an ISO 8601 date-time`);
  }
  const [payload, payloadName] = field(message, envelope.payload, camel);
  if (absent(payload)) throw refuse(n, payloadName, 'is missing');
  if (!isObject(payload)) throw refuse(n, payloadName, 'is not an object');
  const [metadata, metadataName] = field(message, envelope.metadata, camel);
  let id: unknown;
  if (absent(metadata)) {
    // FBA_INVENTORY_AVAILABILITY_CHANGES may come without metadata: its id is the message's own hash.
    id = createHash('sha256').update(JSON.stringify(message)).digest('hex');
  } else {
    if (!isObject(metadata)) throw refuse(n, metadataName, 'is not an object');
    const [metadataId, idName] = field(metadata, envelope.id, camel);
    if (absent(metadataId) || metadataId === '') throw refuse(n, `${metadataName}.${idName}`, 'is missing');
    if (typeof metadataId !== 'string') throw refuse(n, `${metadataName}.${idName}`, 'is not a string');
    id = metadataId;
  }
  const [payloadVersion] = field(message, envelope.payloadVersion, camel);
  const record: JsonRecord = {
    notificationId: id,
    notificationType: type,
    eventTime,
    payloadVersion,
    notificationMetadata: absent(metadata) ? null : JSON.stringify(metadata),
    payload: JSON.stringify(payload),
    sellerKey: sellerKeyOf(payload),
  };
  // Other envelope fields (NotificationVersion) are kept in _extra.
  for (const [key, value] of Object.entries(message))
    if (!envelopeKeys.has(key) && !columnNames.has(key)) record[key] = value;
  return record;
}

/**
 * The notification messages of a document: one message, a JSON array of them, or an SQS ReceiveMessage answer
 * (`{"Messages": [{"Body": "<message JSON>"}, …]}`); each checked and turned into its raw row.
 */
export function notificationRecords(document: unknown): JsonRecord[] {
  let messages: unknown[];
  if (Array.isArray(document)) messages = document;
  else if (isObject(document) && Array.isArray(document.Messages)) messages = document.Messages.map(sqsBody);
  else if (isObject(document)) messages = [document];
  else
    throw new RefusedFile(
      null,
      'expected a notification message (a JSON object), an array of them, or an SQS ReceiveMessage answer',
    );
  return messages.map((message, i) => notificationRecord(message, i + 1));
}

/** The notification an SQS message carries in its Body (JSON text). */
function sqsBody(message: unknown, i: number): unknown {
  const n = i + 1;
  if (!isObject(message) || typeof message.Body !== 'string') throw refuse(n, 'Body', 'is missing');
  try {
    return JSON.parse(message.Body) as unknown;
  } catch {
    throw refuse(n, 'Body', 'is not JSON');
  }
}
