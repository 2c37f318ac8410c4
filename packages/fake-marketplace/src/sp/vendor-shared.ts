import { createHash } from 'node:crypto';
import { isVendor, VendorBook, type TransactionError } from '../data/vendors.ts';
import { invalidInput, SpError } from './sp-error.ts';
import type { SpContext } from './sp-routes.ts';

/** A JSON object of a request body. */
export type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const missing = (v: unknown) => v === undefined || v === null || v === '';

/**
 * The vendor books of one fake marketplace, by account: a seller account (no vendor role) gets the SP-API's
 * 403 Unauthorized, as the real API answers a selling partner without the vendor roles.
 */
export function vendorBooks(seed: (book: VendorBook, at: number) => void = () => {}): (ctx: SpContext) => VendorBook {
  const books = new Map<string, VendorBook>();
  return (ctx) => {
    if (!isVendor(ctx.seller)) throw new SpError(403, 'Unauthorized', 'Access to requested resource is denied.', '');
    let book = books.get(ctx.seller.sellerId);
    if (!book) {
      book = new VendorBook(ctx.at);
      seed(book, ctx.at);
      books.set(ctx.seller.sellerId, book);
    }
    book.settle(ctx.at);
    return book;
  };
}

/** The body's list `name`: a non-empty array of objects, or 400 InvalidInput naming it. */
export function entries(ctx: SpContext, name: string): Obj[] {
  const list = isObj(ctx.body) ? ctx.body[name] : undefined;
  if (!Array.isArray(list) || list.length === 0 || !list.every(isObj))
    throw invalidInput(`Missing required field: ${name}.`);
  return list;
}

/** Refuses (400 InvalidInput, naming the field by its path) an object that lacks one of the model's required fields. */
export function required(o: Obj, path: string, names: string[]): void {
  const absent = names.find((n) => missing(o[n]));
  if (absent) throw invalidInput(`Missing required field: ${path}.${absent}.`);
}

/** The `partyId` of the party `name` of an object (PartyIdentification), required. */
export function partyId(o: Obj, path: string, name: string): string {
  const party = o[name];
  if (!isObj(party) || typeof party.partyId !== 'string' || party.partyId === '')
    throw invalidInput(`Missing required field: ${path}.${name}.partyId.`);
  return party.partyId;
}

/** A list field of an object: a non-empty array of objects each with the required fields, or 400 naming it. */
export function list(o: Obj, path: string, name: string, fields: string[]): Obj[] {
  const items = o[name];
  if (!Array.isArray(items) || items.length === 0 || !items.every(isObj))
    throw invalidInput(`Missing required field: ${path}.${name}.`);
  items.forEach((item, i) => required(item, `${path}.${name}[${i}]`, fields));
  return items;
}

/** One of the values a model's enum allows, or 400 naming the field. */
export function oneOf(o: Obj, path: string, name: string, values: readonly string[]): string {
  const v = o[name];
  if (typeof v !== 'string' || !values.includes(v))
    throw invalidInput(`Invalid value for ${path}.${name}: expected one of ${values.join(', ')}.`);
  return v;
}

/** An ISO 8601 date-time field, required, or 400 naming it. */
export function dateTime(o: Obj, path: string, name: string): string {
  const v = o[name];
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v)))
    throw invalidInput(`Invalid value for ${path}.${name}: expected an ISO 8601 date-time.`);
  return v;
}

/** The asynchronous check of the fake: a purchase order number it does not know fails the transaction. */
/**
 * The PO numbers of `pos` not among the vendor's `known` orders, as transaction errors (the fake's asynchronous check).
 */
export const unknownOrders = (known: Map<string, unknown>, pos: unknown[]): TransactionError[] =>
  [...new Set(pos.map(String))].filter((po) => !known.has(po)).map(unknownOrder);

const unknownOrder = (purchaseOrderNumber: string): TransactionError => ({
  code: 'InvalidInput',
  message: `Purchase order ${purchaseOrderNumber} was not found for this vendor.`,
  details: 'purchaseOrderNumber',
});

/** A realistic tracking number (UPS style) derived from what it labels. */
export const trackingNumber = (...parts: string[]) =>
  `1Z${createHash('sha1').update(parts.join('/')).digest('hex').slice(0, 16).toUpperCase()}`;

/** Base64 content standing in for a label or document (ZPL, PDF). */
export const base64 = (text: string) => Buffer.from(text).toString('base64');

/** 202 Accepted with the transaction id: `{ payload: { transactionId } }` for the v1 APIs, bare for 2021-12-28. */
export const accepted = (transactionId: string, envelope: boolean) => ({
  status: 202,
  body: envelope ? { payload: { transactionId } } : { transactionId },
});
