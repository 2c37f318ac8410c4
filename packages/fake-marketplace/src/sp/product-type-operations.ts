import { createHash } from 'node:crypto';
import { invalidInput, SpError } from './sp-error.ts';
import { listParam, type SpContext, type SpRoute } from './sp-routes.ts';

/**
 * searchDefinitionsProductTypes (Product Type Definitions 2020-09-01): the product types of the seller's listings whose
 * name contains one of the keywords, or a word of the item name; the fake knows no others.
 */
function searchProductTypes(ctx: SpContext) {
  if (!listParam(ctx, 'marketplaceIds').includes(ctx.seller.marketplaceId))
    throw invalidInput('marketplaceIds is required.');
  const words = (ctx.query.keywords ?? ctx.query.itemName ?? '')
    .toUpperCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (ctx.query.keywords !== undefined && ctx.query.itemName !== undefined)
    throw invalidInput('Provide either keywords or itemName, not both.');
  const names = [
    ...new Set(
      ctx.state.data
        .listingsItems(ctx.seller, ctx.at)
        .map((item) => String((item.productTypes as { productType: string }[])[0]!.productType)),
    ),
  ].sort();
  const productTypes = names
    .filter((name) => words.some((w) => name.includes(w) || w.includes(name)))
    .map((name) => ({
      name,
      displayName: name.charAt(0) + name.slice(1).toLowerCase().replaceAll('_', ' '),
      marketplaceIds: [ctx.seller.marketplaceId],
    }));
  return { status: 200, body: { productTypes, productTypeVersion: 'UHqSqmb4FNUk=' } };
}

/** getDefinitionsProductType: the definition of one of the seller's product types, its JSON Schema by link. */
function productTypeDefinition(ctx: SpContext) {
  if (!listParam(ctx, 'marketplaceIds').includes(ctx.seller.marketplaceId))
    throw invalidInput('marketplaceIds is required.');
  const productType = decodeURIComponent(ctx.params[0]!);
  const known = ctx.state.data
    .listingsItems(ctx.seller, ctx.at)
    .some((item) => (item.productTypes as { productType: string }[])[0]!.productType === productType);
  if (!known) throw new SpError(404, 'NOT_FOUND', `Product type ${productType} does not exist.`, '');
  const requirements = ctx.query.requirements ?? 'LISTING';
  const link = (name: string) => ({
    link: { resource: `https://selling-partner-definitions-prod-iad.s3.amazonaws.com/${name}`, verb: 'GET' },
    checksum: createHash('md5').update(name).digest('base64'),
  });
  return {
    status: 200,
    body: {
      metaSchema: link('metaschema/v1.json'),
      schema: link(`schema/amzn1/${productType}.json`),
      requirements,
      requirementsEnforced: ctx.query.requirementsEnforced ?? 'ENFORCED',
      propertyGroups: {
        offer: { title: 'Offer', propertyNames: ['purchasable_offer', 'list_price'] },
        product_identity: { title: 'Product Identity', propertyNames: ['item_name', 'brand'] },
      },
      locale:
        ctx.query.locale === undefined || ctx.query.locale === 'DEFAULT'
          ? ctx.seller.countryCode === 'DE'
            ? 'de_DE'
            : 'en_US'
          : ctx.query.locale,
      marketplaceIds: [ctx.seller.marketplaceId],
      productType,
      displayName: productType.charAt(0) + productType.slice(1).toLowerCase().replaceAll('_', ' '),
      productTypeVersion: { version: 'UHqSqmb4FNUk=', latest: true, releaseCandidate: false },
    },
  };
}

/** The Product Type Definitions 2020-09-01 operations: search the seller's product types, read one's definition. */
export function productTypeRoutes(): SpRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/definitions\/2020-09-01\/productTypes$/,
      operation: 'searchDefinitionsProductTypes',
      handler: searchProductTypes,
    },
    {
      method: 'GET',
      pattern: /^\/definitions\/2020-09-01\/productTypes\/([^/]+)$/,
      operation: 'getDefinitionsProductType',
      handler: productTypeDefinition,
    },
  ];
}
