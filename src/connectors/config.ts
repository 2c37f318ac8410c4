import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MktdataError } from '../errors.ts';
import type { Home } from '../home.ts';

export const regions = ['NA', 'EU', 'FE'] as const;
export type Region = (typeof regions)[number];

/** Where the connectors send requests: the marketplace's hosts, or a fake marketplace's. */
export interface Endpoints {
  lwa: string;
  spApi: Record<Region, string>;
  ads: Record<Region, string>;
  /** Seller Central's consent page of a marketplace domain (`amazon.de` → `https://sellercentral.amazon.de/…`). */
  sellerCentralConsent: (domain: string) => string;
  adsConsent: Record<Region, string>;
}

/** The application the connectors run as (the operator's own SP-API and Ads API apps) and where they call. */
export interface ConnectorConfig {
  spApi: { applicationId?: string; clientId?: string; clientSecret?: string; draftApp: boolean };
  ads: { clientId?: string; clientSecret?: string };
  /** The base URL sellers' browsers reach this server on, for OAuth redirects; default: the invitation's own URL. */
  publicUrl?: string;
  endpoints: Endpoints;
  /** The SQS queue notifications arrive in (MKTDATA_NOTIFICATIONS_QUEUE_URL), when the operator set one up. */
  notifications?: NotificationQueueConfig;
  /** Where the settings came from, for error messages. */
  file: string;
}

/** The marketplace's real hosts (docs/design/live-apis.md §1). */
export const amazonEndpoints: Endpoints = {
  lwa: 'https://api.amazon.com/auth/o2/token',
  spApi: {
    NA: 'https://sellingpartnerapi-na.amazon.com',
    EU: 'https://sellingpartnerapi-eu.amazon.com',
    FE: 'https://sellingpartnerapi-fe.amazon.com',
  },
  ads: {
    NA: 'https://advertising-api.amazon.com',
    EU: 'https://advertising-api-eu.amazon.com',
    FE: 'https://advertising-api-fe.amazon.com',
  },
  sellerCentralConsent: (domain) => `https://sellercentral.${domain}/apps/authorize/consent`,
  adsConsent: {
    NA: 'https://www.amazon.com/ap/oa',
    EU: 'https://eu.account.amazon.com/ap/oa',
    FE: 'https://apac.account.amazon.com/ap/oa',
  },
};

/**
 * Every endpoint under one base URL (MKTDATA_MARKETPLACE_URL), the layout a stand-in for the marketplace serves (the
 * fake marketplace does): `/auth/o2/token`, `/sp/<region>`, `/ads/<region>`, and the consent pages.
 */
export function endpointsUnder(url: string): Endpoints {
  const base = url.replace(/\/+$/, '');
  const perRegion = (root: string) =>
    Object.fromEntries(regions.map((r) => [r, `${base}/${root}/${r.toLowerCase()}`])) as Record<Region, string>;
  return {
    lwa: `${base}/auth/o2/token`,
    spApi: perRegion('sp'),
    ads: perRegion('ads'),
    sellerCentralConsent: () => `${base}/apps/authorize/consent`,
    adsConsent: Object.fromEntries(regions.map((r) => [r, `${base}/ap/oa`])) as Record<Region, string>,
  };
}

const configFileSchema = z
  .object({
    spApi: z
      .object({
        applicationId: z.string().min(1),
        clientId: z.string().min(1),
        clientSecret: z.string().min(1),
        draftApp: z.boolean(),
      })
      .partial()
      .strict(),
    ads: z
      .object({ clientId: z.string().min(1), clientSecret: z.string().min(1) })
      .partial()
      .strict(),
    publicUrl: z.string().url(),
    marketplaceUrl: z.string().url(),
    notificationsQueueUrl: z.string().url(),
  })
  .partial()
  .strict();

/** The config file: $MKTDATA_CONFIG, else `mktdata.config` (JSON) in the home. */
export const configFile = (home: Home, env: NodeJS.ProcessEnv = process.env): string =>
  env.MKTDATA_CONFIG ?? join(home.root, 'mktdata.config');

function readConfigFile(file: string): z.infer<typeof configFileSchema> {
  if (!existsSync(file)) return {};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MktdataError('ERR_INPUT_INVALID', { where: file, reason: `not JSON: ${(error as Error).message}` });
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MktdataError('ERR_INPUT_INVALID', { where: `${file} ${issue.path.join('.')}`, reason: issue.message });
  }
  const secrets = parsed.data.spApi?.clientSecret ?? parsed.data.ads?.clientSecret;
  if (secrets && (statSync(file).mode & 0o077) !== 0) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: file,
      reason: 'it holds a client secret and other users can read it: `chmod 600` it',
    });
  }
  return parsed.data;
}

/**
 * The connector configuration: the environment (MKTDATA_SP_API_APPLICATION_ID, MKTDATA_SP_API_CLIENT_ID,
 * MKTDATA_SP_API_CLIENT_SECRET, MKTDATA_SP_API_DRAFT_APP, MKTDATA_ADS_CLIENT_ID, MKTDATA_ADS_CLIENT_SECRET,
 * MKTDATA_PUBLIC_URL, MKTDATA_MARKETPLACE_URL, MKTDATA_NOTIFICATIONS_QUEUE_URL) over the config file.
 */
export function loadConnectorConfig(home: Home, env: NodeJS.ProcessEnv = process.env): ConnectorConfig {
  const file = configFile(home, env);
  const fromFile = readConfigFile(file);
  const marketplaceUrl = env.MKTDATA_MARKETPLACE_URL ?? fromFile.marketplaceUrl;
  if (marketplaceUrl !== undefined && !z.string().url().safeParse(marketplaceUrl).success) {
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_MARKETPLACE_URL',
      reason: `not a URL: ${marketplaceUrl}`,
    });
  }
  return {
    spApi: {
      applicationId: env.MKTDATA_SP_API_APPLICATION_ID ?? fromFile.spApi?.applicationId,
      clientId: env.MKTDATA_SP_API_CLIENT_ID ?? fromFile.spApi?.clientId,
      clientSecret: env.MKTDATA_SP_API_CLIENT_SECRET ?? fromFile.spApi?.clientSecret,
      draftApp:
        env.MKTDATA_SP_API_DRAFT_APP !== undefined
          ? env.MKTDATA_SP_API_DRAFT_APP === 'true'
          : (fromFile.spApi?.draftApp ?? false),
    },
    ads: {
      clientId: env.MKTDATA_ADS_CLIENT_ID ?? fromFile.ads?.clientId,
      clientSecret: env.MKTDATA_ADS_CLIENT_SECRET ?? fromFile.ads?.clientSecret,
    },
    publicUrl: env.MKTDATA_PUBLIC_URL ?? fromFile.publicUrl,
    endpoints: marketplaceUrl ? endpointsUnder(marketplaceUrl) : amazonEndpoints,
    notifications: notificationQueue(
      env.MKTDATA_NOTIFICATIONS_QUEUE_URL ?? fromFile.notificationsQueueUrl,
      marketplaceUrl,
      env,
    ),
    file,
  };
}

/**
 * The notification queue's settings: its URL (`https://sqs.<region>.amazonaws.com/<account>/<name>`; the region is
 * read from it, else AWS_REGION) with the AWS SDK's own credentials; at a fake marketplace, its `/sqs` endpoint.
 */
function notificationQueue(
  queueUrl: string | undefined,
  marketplaceUrl: string | undefined,
  env: NodeJS.ProcessEnv,
): NotificationQueueConfig | undefined {
  if (!queueUrl) return undefined;
  if (!z.string().url().safeParse(queueUrl).success)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_NOTIFICATIONS_QUEUE_URL',
      reason: `not a URL: ${queueUrl}`,
    });
  if (marketplaceUrl)
    return {
      queueUrl,
      region: 'us-east-1',
      endpoint: `${marketplaceUrl.replace(/\/+$/, '')}/sqs`,
      credentials: { accessKeyId: 'FAKEMARKETPLACE', secretAccessKey: 'fake' },
    };
  const region = /^https:\/\/sqs\.([a-z0-9-]+)\.amazonaws\.com\//.exec(queueUrl)?.[1] ?? env.AWS_REGION;
  if (!region)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'MKTDATA_NOTIFICATIONS_QUEUE_URL',
      reason: `no region in ${queueUrl}: set AWS_REGION`,
    });
  return { queueUrl, region };
}

/** The SP-API or Ads application's id and secret, or ERR_CONNECTOR_CONFIG naming where to set them. */
export function appCredentials(
  config: ConnectorConfig,
  api: 'sp-api' | 'ads',
): { clientId: string; clientSecret: string } {
  const app = api === 'sp-api' ? config.spApi : config.ads;
  const prefix = api === 'sp-api' ? 'MKTDATA_SP_API' : 'MKTDATA_ADS';
  if (!app.clientId || !app.clientSecret) {
    throw new MktdataError('ERR_CONNECTOR_CONFIG', {
      what: `the ${api === 'sp-api' ? 'SP-API' : 'Ads API'} application`,
      env: `${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET`,
      file: config.file,
    });
  }
  return { clientId: app.clientId, clientSecret: app.clientSecret };
}

/**
 * The operator's SQS queue the marketplace publishes notifications to (docs/design/live-apis.md §5), and how to reach
 * it.
 */
export interface NotificationQueueConfig {
  queueUrl: string;
  region: string;
  /** The fake marketplace's SQS endpoint; the real one follows from the region. */
  endpoint?: string;
  /** Static credentials (the fake's); otherwise the AWS SDK's default chain (AWS_ACCESS_KEY_ID, a profile, a role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}
