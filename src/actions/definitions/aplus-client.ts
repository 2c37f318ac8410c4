// The A+ Content operations as the actions call them (each for the action's marketplace), what a write answers, and
// PUBLISH's check of the review; aplus.ts defines the types with them.
import { completed, waiting, type ActionContext, type ActionOutcome } from './define.ts';

const BASE = '/aplus/2020-11-01';
/** How soon a submitted document is looked at again (reviews take from minutes to days). */
export const REVIEW_CHECK_MS = 60_000;

/** A message of the marketplace: an error or a warning. */
export type Message = { code: string; message: string; details?: string };
/** A write's answer: COMPLETED, or COMPLETED_WITH_ISSUES when the marketplace added warnings. */
export const written = (result: Record<string, unknown>, warnings: Message[] = []): ActionOutcome => ({
  status: warnings.length > 0 ? 'COMPLETED_WITH_ISSUES' : 'COMPLETED',
  result: { ...result, warnings },
});

/** An A+ Content operation for the action's marketplace. */
export const aplus = <T>(
  ctx: ActionContext,
  operation: string,
  method: 'GET' | 'POST',
  path: string,
  query: Record<string, string | undefined> = {},
  body?: unknown,
) =>
  ctx
    .sp()
    .request<T>(operation, {
      method,
      path: `${BASE}${path}`,
      query: { marketplaceId: ctx.marketplaceId, ...query },
      ...(body === undefined ? {} : { body }),
    })
    .then((r) => r.body);
/** The path of a content document, with what follows it. */
export const documentPath = (key: string, tail = '') => `/contentDocuments/${encodeURIComponent(key)}${tail}`;

interface ContentRecord {
  contentReferenceKey: string;
  contentMetadata?: { name: string; status: 'APPROVED' | 'DRAFT' | 'REJECTED' | 'SUBMITTED'; updateTime: string };
  contentDocument?: unknown;
}
/** getContentDocument with the data sets asked for. */
export const getDocument = (ctx: ActionContext, key: string, sets: string) =>
  aplus<{ contentRecord: ContentRecord }>(ctx, 'getContentDocument', 'GET', documentPath(key), {
    includedDataSet: sets,
  }).then((b) => b.contentRecord);

/** PUBLISH's check: the document's review status (SUBMITTED waits, APPROVED completes, REJECTED is invalid input). */
export async function reviewOutcome(ctx: ActionContext, key: string): Promise<ActionOutcome> {
  const record = await getDocument(ctx, key, 'METADATA');
  const status = record.contentMetadata?.status;
  const result = { contentReferenceKey: key, status, updateTime: record.contentMetadata?.updateTime };
  if (status === 'SUBMITTED') return waiting(key, result, REVIEW_CHECK_MS);
  if (status === 'APPROVED') return completed(result);
  if (status === 'REJECTED')
    return {
      status: 'BLOCKED_INVALID_INPUT',
      result,
      error: {
        status: 400,
        code: 'CONTENT_REJECTED',
        message: 'The marketplace rejected the A+ content: MKT_APLUS_CONTENT_VALIDATE lists its issues.',
      },
    };
  return {
    status: 'ERROR',
    result,
    error: {
      status: 409,
      code: 'CONTENT_NOT_SUBMITTED',
      message: `The document is ${String(status)}: it was changed after the submission; publish it again.`,
    },
  };
}
