import { appCredentials, type ConnectorConfig } from '../connectors/config.ts';
import { ConnectorError } from '../connectors/connector-error.ts';
import type { Credentials } from '../connectors/credentials.ts';
import { LwaClient } from '../connectors/lwa.ts';
import type { Clock } from '../time/clock.ts';
import type { DatedAnswer } from './application-check.ts';
import { apiName, fail, ok, skipped, type CheckResult } from './check.ts';

/**
 * How far this machine's clock may be from the marketplace's: AWS Signature V4, which signs the notification queue's
 * requests and the marketplace's pre-signed document links, refuses a request stamped more than 5 minutes off.
 */
export const maxClockSkewMs = 5 * 60_000;

/** Minutes and seconds, for a clock offset. */
const duration = (ms: number) => {
  const seconds = Math.round(Math.abs(ms) / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
};

/**
 * This machine's clock against the marketplace's: the Date header of a Login with Amazon answer (whole seconds, so
 * read as the middle of its second) against the middle of the request on this clock.
 */
export function clockCheck(answers: DatedAnswer[], configured: boolean): CheckResult {
  const name = 'clock';
  if (!configured) return skipped(name, 'no application is configured: nothing is requested from the marketplace');
  const answer = answers[0];
  if (!answer)
    return fail(
      name,
      "could not be compared: Login with Amazon's answer did not come or had no Date header",
      'see the application lines above, then run `mktdata doctor` again',
    );
  const offset = answer.date + 500 - (answer.sentAt + answer.receivedAt) / 2;
  const relation = `this machine's clock is ${duration(offset)} ${offset > 0 ? 'behind' : 'ahead of'} the marketplace's (the Date of Login with Amazon's answer)`;
  if (Math.abs(offset) <= maxClockSkewMs)
    return ok(
      name,
      Math.abs(offset) < 1000
        ? "this machine's clock agrees with the marketplace's (the Date of Login with Amazon's answer, to the second)"
        : relation,
    );
  return fail(
    name,
    `${relation}, more than the 5 minutes signed requests allow`,
    'set the clock right and keep it synchronized (NTP: `timedatectl set-ntp true`, or chrony)',
  );
}

/**
 * Each stored grant, exchanged for an access token as a fetch would (a fresh LWA client: a token a server cached
 * earlier proves nothing about the grant now). The token is dropped at once and never shown.
 */
export async function grantChecks(
  credentials: Credentials[],
  config: ConnectorConfig,
  names: Map<string, string>,
  clock: Clock,
): Promise<CheckResult[]> {
  if (credentials.length === 0) return [skipped('grants', 'no connection holds credentials (dropped files only)')];
  const results: CheckResult[] = [];
  for (const c of credentials) {
    const connection = `${names.get(c.connectionId) ?? 'connection'} (${c.connectionId})`;
    const name = `${apiName(c.api)} grant of ${connection}`;
    const reconnect = `reconnect it: send the seller an invitation link (POST /api/v1/util/sellers-and-vendors/invite) or store a new refresh token with \`mktdata connections credentials --connection ${c.connectionId} --api ${c.api}\``;
    try {
      const app = appCredentials(config, c.api);
      await new LwaClient({ tokenUrl: config.endpoints.lwa, ...app, clock }).accessToken(c.refreshToken);
      results.push(
        c.status === 'active'
          ? ok(name, 'Login with Amazon exchanges its refresh token for an access token')
          : fail(
              name,
              `Login with Amazon accepts its refresh token, but it is still marked as needing re-authorization (${c.statusReason ?? ''}), so nothing is fetched for it`,
              `store it again: ${reconnect.replace(/^reconnect it: /, '')}`,
            ),
      );
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === 'invalid-grant')
        results.push(
          fail(
            name,
            'Login with Amazon refused its refresh token (invalid_grant: revoked, or lapsed after 12 months)',
            reconnect,
          ),
        );
      else if (error instanceof ConnectorError && error.kind === 'invalid-client')
        results.push(
          fail(name, 'not checked: the application was refused', `see the ${apiName(c.api)} application line`),
        );
      else
        results.push(
          fail(
            name,
            `could not be checked: ${(error as Error).message.split('\n')[0]}`,
            'fix what the message names and run `mktdata doctor` again',
          ),
        );
    }
  }
  return results;
}
