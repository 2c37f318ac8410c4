import { z } from 'zod';

/** A schema that appears in the OpenAPI document under the spec's name. */
export const named = <T extends z.ZodType>(id: string, schema: T): T => {
  z.globalRegistry.add(schema, { id });
  return schema;
};

export const errorIssue = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  code: z.string(),
  message: z.string(),
});

/** The error body of docs/design/API.md, shared by every error status. */
export const apiError = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  code: z.string(),
  message: z.string(),
  requestId: z.string(),
  issues: z.array(errorIssue).optional(),
});

export const ApiBadRequestResponse = named('ApiBadRequestResponse', apiError);
export const ApiUnauthorizedResponse = named('ApiUnauthorizedResponse', apiError);
export const ApiNotFoundResponse = named('ApiNotFoundResponse', apiError);
export const ApiRateLimitResponse = named('ApiRateLimitResponse', apiError);
export const ApiInternalErrorResponse = named('ApiInternalErrorResponse', apiError);

/** A 204 answer: no body. */
export const noContent = z.null().describe('No content');

/** Responses every key-protected endpoint can give besides its own. */
export const keyProtectedErrors = {
  400: ApiBadRequestResponse,
  401: ApiUnauthorizedResponse,
  429: ApiRateLimitResponse,
};

export const sourceType = z.enum(['SELLER_CENTRAL', 'VENDOR_CENTRAL', 'MKT_ADS']);

/** Boolean query parameters arrive as text. */
export const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const UtilityOrganizationResponseDto = named(
  'UtilityOrganizationResponseDto',
  z.object({
    id: z.string(),
    name: z.string(),
    tokenBalance: z
      .number()
      .int()
      .nullable()
      .describe('null: unmetered (a self-hosted organization made without tokens); its usage is still recorded.'),
    limits: z.object({
      requestsPerSecond: z.number(),
      exportsPageSizeMax: z.number().int(),
      sellersAndVendorsPageSizeMax: z.number().int(),
    }),
  }),
);

/**
 * A page number or size: a whole number (decimal digits; not `1e3`, `0x10` or `1.5`) within its range; a whole
 * number outside it, negative or of any length, is said to be out of range.
 */
export const pageParam = (max: number, fallback: number) => {
  const range = `expected a whole number between 1 and ${max}`;
  return z
    .string()
    .refine((text) => /^\+?\d+$/.test(text) && BigInt(text) >= 1n && BigInt(text) <= BigInt(max), range)
    .transform(Number)
    .default(fallback);
};

export const sellersAndVendorsQuery = z
  .object({
    page: pageParam(999_999_999, 1),
    pageSize: pageParam(100, 100),
    query: z.string().max(256).optional(),
    marketplaceCountryCode: z.string().length(2).optional(),
  })
  .strict();

const AccountLink = named(
  'AccountLink',
  z
    .object({
      status: z.enum(['CONNECTED', 'NEEDS_REAUTHORIZATION', 'FILES']).describe('FILES: fed by reports landed by hand.'),
      connectedAt: z.string(),
      accessLevel: z.enum(['READ']),
    })
    .nullable(),
);

export const SellerOrVendor = named(
  'SellerOrVendor',
  z.object({
    id: z.string().describe('The sellerOrVendorId (clients read `id`).'),
    sellerOrVendorId: z.string(),
    name: z.string(),
    accountType: z.enum(['SELLER', 'VENDOR', 'ADS_ONLY', 'UNCONNECTED']),
    sellerCentralConnection: AccountLink,
    vendorCentralConnection: AccountLink,
    mktAdsConnection: AccountLink,
    mktDspConnection: z.null().describe('No DSP connector exists: always null.'),
    rowCount: z.number().int().describe('Rows landed for the connection, every source together.'),
    marketplaceId: z.string(),
    marketplaceCountryCode: z.string(),
    marketplaceCountryName: z.string(),
    marketplaceSellerId: z.string().nullable(),
    connections: z.array(z.object({ type: sourceType, createdAt: z.string() })),
    accessLevel: z.enum(['READ', 'READ_AND_WRITE']),
    initialLoadStage: z.enum(['FIRST_STAGE', 'SECOND_STAGE', 'COMPLETE']),
  }),
);

export const SellersAndVendorsResponseDto = named(
  'SellersAndVendorsResponseDto',
  z.object({
    items: z.array(SellerOrVendor),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
  }),
);

export const CreatePublicInvitationRequest = named(
  'CreatePublicInvitationRequest',
  z
    .object({
      accountType: z
        .enum(['SELLER', 'VENDOR'])
        .default('SELLER')
        .describe('Kind of account the invited party connects.'),
      name: z
        .string()
        .trim()
        .min(1)
        .max(256)
        .optional()
        .describe('Suggested name of the connection, shown pre-filled.'),
      marketplaceCountryCode: z
        .string()
        .length(2)
        .optional()
        .describe('Suggested marketplace (UK and GB both mean the United Kingdom).'),
    })
    .strict(),
);

export const CreatePublicInvitationResponse = named(
  'CreatePublicInvitationResponse',
  z.object({
    invitationId: z.string(),
    url: z
      .string()
      .describe('Public link (no key needed) to a page where the seller or vendor registers the connection.'),
    accountType: z.enum(['SELLER', 'VENDOR']),
    expiresAt: z.string().describe('The link stops working after this time (7 days after creation).'),
  }),
);

export const invitationForm = z.object({
  name: z.string().trim().min(1, 'a name is required').max(256),
  marketplaceId: z.string().trim().min(1, 'choose a marketplace'),
  sellerId: z
    .string()
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v ? v : undefined)),
});
