// The A+ content document as an action's details give it (the module subset), and its mapping to the model's
// ContentDocument (A+ Content API 2020-11-01); aplus.ts sends it.
import { z } from 'zod';

/** A content reference key, as the A+ types take it. */
export const contentReferenceKey = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('The content reference key of an A+ content document (from MKT_APLUS_CONTENT_ADD or _FIND).');
/** An ASIN, as the A+ types take it. */
export const asin = z.string().regex(/^[A-Z0-9]{10}$/, 'a 10-character ASIN such as B0NB0P6V0A');
/** The page token of the A+ finds. */
export const pageToken = z.string().min(1).max(2048).optional().describe('nextPageToken of the previous page.');
const headline = (max: number) => z.string().trim().min(1).max(max);
const paragraphs = (max: number) =>
  z.array(z.string().trim().min(1).max(max)).min(1).max(20).describe('Paragraphs of plain text.');
const pixels = z.number().int().min(1).max(10_000);

const image = z
  .object({
    uploadDestinationId: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe(
        'The uploaded image: uploadDestinationId from the Uploads API (resource aplus/2020-11-01/contentDocuments).',
      ),
    altText: z.string().trim().min(1).max(100),
    width: pixels.describe('Crop width in pixels.'),
    height: pixels.describe('Crop height in pixels.'),
    offsetX: z.number().int().min(0).max(10_000).optional(),
    offsetY: z.number().int().min(0).max(10_000).optional(),
  })
  .strict();

const textBlock = z.object({ headline: headline(200).optional(), body: paragraphs(1000) }).strict();

/** The module subset: STANDARD_TEXT and STANDARD_SINGLE_IMAGE_HIGHLIGHTS, plain text (no decorators). */
const contentModule = z.discriminatedUnion('type', [
  z.object({ type: z.literal('STANDARD_TEXT'), headline: headline(160).optional(), body: paragraphs(5000) }).strict(),
  z
    .object({
      type: z.literal('STANDARD_SINGLE_IMAGE_HIGHLIGHTS'),
      image: image.optional(),
      headline: headline(160).optional(),
      textBlocks: z.array(textBlock).min(1).max(3).optional(),
      bulletsHeadline: headline(200).optional(),
      bullets: z.array(z.string().trim().min(1).max(250)).min(1).max(8).optional(),
    })
    .strict(),
]);

/** The fields of a content document (ContentDocument), shared by ADD, UPDATE and VALIDATE. */
export const documentShape = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe("The document's name in Seller/Vendor Central, not shown to customers."),
  contentType: z
    .enum(['EBC', 'EMC'])
    .default('EBC')
    .describe('EBC: A+ content of a brand; EMC: A+ content of a vendor (Enhanced Marketing Content).'),
  contentSubType: z.string().trim().min(1).max(100).optional(),
  locale: z
    .string()
    .regex(/^[a-z]{2}_[A-Z]{2}$/, 'a locale such as en_US')
    .describe('The language of the text, one the marketplace supports (en_US in the US).'),
  modules: z.array(contentModule).min(1).max(5).describe('At most 5 standard modules, shown in this order.'),
};
type DocumentDetails = z.output<z.ZodObject<typeof documentShape>>;
type Module = z.output<typeof contentModule>;

const text = (value: string) => ({ value });
const paragraph = (values: string[]) => ({ textList: values.map(text) });
const optional = <K extends string, V>(key: K, value: V | undefined) =>
  value === undefined ? {} : ({ [key]: value } as Record<K, V>);

/** An ImageComponent: the crop as given, in pixels. */
const imageComponent = (i: z.output<typeof image>) => ({
  uploadDestinationId: i.uploadDestinationId,
  altText: i.altText,
  imageCropSpecification: {
    size: { width: { value: i.width, units: 'pixels' }, height: { value: i.height, units: 'pixels' } },
    ...(i.offsetX !== undefined || i.offsetY !== undefined
      ? { offset: { x: { value: i.offsetX ?? 0, units: 'pixels' }, y: { value: i.offsetY ?? 0, units: 'pixels' } } }
      : {}),
  },
});

/** A module of `details` as the model's ContentModule. */
function upstreamModule(m: Module): Record<string, unknown> {
  if (m.type === 'STANDARD_TEXT')
    return {
      contentModuleType: m.type,
      standardText: { ...optional('headline', m.headline && text(m.headline)), body: paragraph(m.body) },
    };
  const blocks = Object.fromEntries(
    (m.textBlocks ?? []).map((b, i) => [
      `textBlock${i + 1}`,
      { ...optional('headline', b.headline && text(b.headline)), body: paragraph(b.body) },
    ]),
  );
  return {
    contentModuleType: m.type,
    standardSingleImageHighlights: {
      ...optional('image', m.image && imageComponent(m.image)),
      ...optional('headline', m.headline && text(m.headline)),
      ...blocks,
      ...(m.bullets
        ? {
            bulletedListBlock: {
              ...optional('headline', m.bulletsHeadline && text(m.bulletsHeadline)),
              block: { textList: m.bullets.map((b, i) => ({ position: i + 1, text: text(b) })) },
            },
          }
        : {}),
    },
  };
}

/** A PostContentDocumentRequest of the document's fields in `details`. */
export const contentDocument = (d: DocumentDetails) => ({
  contentDocument: {
    name: d.name,
    contentType: d.contentType,
    ...optional('contentSubType', d.contentSubType),
    locale: d.locale,
    contentModuleList: d.modules.map(upstreamModule),
  },
});

/** Two modules of the demo daypack's story: the examples' content. */
export const exampleModules = [
  {
    type: 'STANDARD_TEXT',
    headline: 'Built for the trail',
    body: ['Every Acme daypack is tested on real trails before it reaches you.'],
  },
  {
    type: 'STANDARD_SINGLE_IMAGE_HIGHLIGHTS',
    image: {
      uploadDestinationId: 'aplus-media/sc/3c2a9f0e-5d0b-4c3e-9a51-7f0f6b1d2e8a.jpg',
      altText: 'Acme 22L Daypack on a trail',
      width: 300,
      height: 300,
    },
    headline: 'Why hikers pick it',
    bullets: ['Padded laptop sleeve', 'Weighs 600 g', 'Water-resistant fabric'],
  },
];
