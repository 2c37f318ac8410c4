// A+ content documents as the fake keeps them: the model's checks on a document sent, the review's policy check and
// the document an account starts with; aplus-operations.ts serves them.
import { createHash } from 'node:crypto';
import type { FakeSeller } from '../data/sellers.ts';
import { invalidInput } from './sp-error.ts';
import type { SpContext } from './sp-routes.ts';

const MODULE_TYPES = [
  'STANDARD_COMPANY_LOGO',
  'STANDARD_COMPARISON_TABLE',
  'STANDARD_FOUR_IMAGE_TEXT',
  'STANDARD_FOUR_IMAGE_TEXT_QUADRANT',
  'STANDARD_HEADER_IMAGE_TEXT',
  'STANDARD_IMAGE_SIDEBAR',
  'STANDARD_IMAGE_TEXT_OVERLAY',
  'STANDARD_MULTIPLE_IMAGE_TEXT',
  'STANDARD_PRODUCT_DESCRIPTION',
  'STANDARD_SINGLE_IMAGE_HIGHLIGHTS',
  'STANDARD_SINGLE_IMAGE_SPECS_DETAIL',
  'STANDARD_SINGLE_SIDE_IMAGE',
  'STANDARD_TECH_SPECS',
  'STANDARD_TEXT',
  'STANDARD_THREE_IMAGE_TEXT',
];
/** The locales A+ content may be written in, by marketplace (the fake knows the demo's two). */
const LOCALES: Record<string, string[]> = { ATVPDKIKX0DER: ['en_US', 'es_US'], A1PA6795UKMFR9: ['de_DE', 'en_GB'] };
/** What the review refuses: prices, promotions, shipping offers, guarantees and best-seller claims. */
const POLICY = /(\$\s?\d|€\s?\d|\d+\s?%\s*off|free shipping|discount|\bsale\b|guarantee|best[- ]?sell)/i;

/** A content document (ContentDocument) as the fake stores it. */
export type Doc = Record<string, unknown> & {
  name: string;
  contentType: string;
  contentSubType?: string;
  locale: string;
  contentModuleList: Record<string, unknown>[];
};

/**
 * One content document of an account: what was last sent, its review status, its ASINs, and the approved version shown.
 */
export interface StoredDocument {
  key: string;
  document: Doc;
  status: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REJECTED';
  updateTime: number;
  submittedAt: number | null;
  asins: string[];
  /** The approved version the related ASINs' detail pages show; null before approval or once suspended. */
  live: Doc | null;
}

/** A deterministic content reference key (UUID form) for the document an account starts with. */
export const seedContentReferenceKey = (sellerId: string): string => {
  const h = createHash('sha256').update(`aplus/${sellerId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** The document an account starts with: a published STANDARD_TEXT story on its day pack (or first listing). */
export function seedDocument(seller: FakeSeller, asins: string[], packAsin: string | undefined): StoredDocument {
  const de = seller.countryCode === 'DE';
  const document: Doc = {
    name: de ? 'Acme Tagesrucksack – Markengeschichte' : 'Acme Daypack – brand story',
    contentType: 'EBC',
    locale: de ? 'de_DE' : 'en_US',
    contentModuleList: [
      {
        contentModuleType: 'STANDARD_TEXT',
        standardText: {
          headline: { value: de ? 'Für den Trail gebaut' : 'Built for the trail' },
          body: {
            textList: [{ value: de ? 'Seit 1998 in den Bergen getestet.' : 'Tested in the mountains since 1998.' }],
          },
        },
      },
    ],
  };
  const asin = packAsin ?? asins[0];
  return {
    key: seedContentReferenceKey(seller.sellerId),
    document,
    status: 'APPROVED',
    updateTime: Date.parse(`${seller.openedOn}T00:00:00Z`),
    submittedAt: null,
    asins: asin ? [asin] : [],
    live: document,
  };
}

/** Every string of a document a customer reads (text values, alt texts). */
const texts = (value: unknown): string[] => {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) =>
      k === 'value' || k === 'altText' || typeof v === 'object' ? texts(v) : [],
    );
  return [];
};
/** The review's findings on a document: a policy message per offending text. */
export const policyIssues = (document: Doc) =>
  texts(document)
    .filter((t) => POLICY.test(t))
    .map((t) => ({
      code: 'CONTENT_POLICY_VIOLATION',
      message: 'A+ content may not mention prices, promotions, shipping offers, guarantees or best-seller claims.',
      details: t.slice(0, 200),
    }));

/** Whether a value is a plain object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const camel = (type: string) => type.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Checks the components inside a module: text components, paragraphs and images as the model requires them. */
function checkComponents(value: unknown, where: string): void {
  if (Array.isArray(value)) return value.forEach((v, i) => checkComponents(v, `${where}[${i}]`));
  if (!isObject(value)) return;
  if ('textList' in value && !Array.isArray(value.textList)) throw invalidInput(`${where}.textList must be an array.`);
  if (
    'value' in value &&
    !('units' in value) &&
    (typeof value.value !== 'string' || value.value.length < 1 || value.value.length > 10_000)
  )
    throw invalidInput(`${where}.value must be 1 to 10000 characters.`);
  if ('uploadDestinationId' in value) {
    const size =
      isObject(value.imageCropSpecification) && isObject(value.imageCropSpecification.size)
        ? value.imageCropSpecification.size
        : null;
    if (typeof value.uploadDestinationId !== 'string' || !value.uploadDestinationId)
      throw invalidInput(`${where}.uploadDestinationId is required.`);
    if (typeof value.altText !== 'string' || value.altText.length < 1 || value.altText.length > 100)
      throw invalidInput(`${where}.altText must be 1 to 100 characters.`);
    if (
      !size ||
      !isObject(size.width) ||
      !isObject(size.height) ||
      !Number.isInteger(size.width.value) ||
      !Number.isInteger(size.height.value)
    )
      throw invalidInput(`${where}.imageCropSpecification.size needs integer width and height.`);
  }
  for (const [k, v] of Object.entries(value)) checkComponents(v, `${where}.${k}`);
}

/**
 * The `contentDocument` of a PostContentDocumentRequest, checked against the model (400 InvalidInput naming the field).
 */
export function contentDocument(ctx: SpContext): Doc {
  const doc = isObject(ctx.body) ? ctx.body.contentDocument : undefined;
  if (!isObject(doc)) throw invalidInput('contentDocument is required.');
  if (typeof doc.name !== 'string' || doc.name.length < 1 || doc.name.length > 100)
    throw invalidInput('contentDocument.name must be 1 to 100 characters.');
  if (doc.contentType !== 'EBC' && doc.contentType !== 'EMC')
    throw invalidInput('contentDocument.contentType must be EBC or EMC.');
  if (typeof doc.locale !== 'string' || doc.locale.length < 5)
    throw invalidInput('contentDocument.locale is required.');
  if (!(LOCALES[ctx.seller.marketplaceId] ?? []).includes(doc.locale))
    throw invalidInput(
      `contentDocument.locale ${doc.locale} is not supported in marketplace ${ctx.seller.marketplaceId}.`,
    );
  const modules = doc.contentModuleList;
  if (!Array.isArray(modules) || modules.length < 1 || modules.length > 100)
    throw invalidInput('contentDocument.contentModuleList must hold 1 to 100 modules.');
  modules.forEach((m: unknown, i) => {
    const where = `contentDocument.contentModuleList[${i}]`;
    if (!isObject(m) || !MODULE_TYPES.includes(String(m.contentModuleType)))
      throw invalidInput(`${where}.contentModuleType is missing or unknown.`);
    const body = m[camel(String(m.contentModuleType))];
    if (!isObject(body))
      throw invalidInput(
        `${where}.${camel(String(m.contentModuleType))} is required for ${String(m.contentModuleType)}.`,
      );
    if (
      m.contentModuleType === 'STANDARD_TEXT' &&
      !(isObject(body.body) && Array.isArray(body.body.textList) && body.body.textList.length > 0)
    )
      throw invalidInput(`${where}.standardText.body.textList is required.`);
    checkComponents(body, `${where}.${camel(String(m.contentModuleType))}`);
  });
  return doc as Doc;
}
