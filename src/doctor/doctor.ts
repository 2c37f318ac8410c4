import { existsSync } from 'node:fs';
import type { ConnectorConfig } from '../connectors/config.ts';
import type { Credentials } from '../connectors/credentials.ts';
import { connectionsByName } from '../control/connections/connections.ts';
import type { Warehouse } from '../db/warehouse.ts';
import type { Home } from '../home.ts';
import type { Clock } from '../time/clock.ts';
import { applicationCheck, type DatedAnswer } from './application-check.ts';
import { apiName, fail, guarded, skipped, type CheckResult } from './check.ts';
import { configurationCheck } from './config-check.ts';
import { diskSpace, homePermissions } from './home-checks.ts';
import { clockCheck, grantChecks } from './marketplace-checks.ts';
import { duckDbCheck, nodeCheck } from './runtime-checks.ts';
import { secretKeyCheck } from './secret-check.ts';

/** What `runDoctor` examines. */
export interface DoctorInputs {
  /** The home, or in a scaled-out install the shared folder (whose `secret.key` and config the processes share). */
  home: Home;
  scaled: boolean;
  /** The control plane, opened only to read (or the running server's), or null when it could not be opened. */
  wh: Warehouse | null;
  /** The lines saying how the control plane was opened: `warehouse`, `PostgreSQL`. */
  controlLines: CheckResult[];
  /** The connector settings of the process that fetches (the running server's), else those of `mktdata.config`. */
  config?: ConnectorConfig;
  /** The connectors' clock, which their requests are stamped with. */
  clock: Clock;
}

/** Every check of `mktdata doctor`, in the order it prints them; each runs even when an earlier one failed. */
export async function runDoctor(inputs: DoctorInputs): Promise<CheckResult[]> {
  const { home, scaled, wh, clock } = inputs;
  const lines: CheckResult[] = [];
  if (scaled) lines.push(skipped('home permissions', 'scaled out: see the shared folder below'));
  else lines.push(...(await guarded('home permissions', () => homePermissions(home))));
  const configuration = configurationCheck(home);
  lines.push(configuration.result, ...inputs.controlLines);
  const config = inputs.config ?? configuration.config;

  // What depends on a line that already failed is not applicable: one broken setup, one ✗ line.
  const notOpened = (name: string) => skipped(name, 'the control plane could not be opened (see its line above)');
  const secret = wh
    ? await secretKeyCheck(wh).catch((error: Error) => ({
        result: fail('secret key', `could not be checked: ${error.message.split('\n')[0]}`, 'fix what it names'),
        credentials: null,
      }))
    : { result: notOpened('secret key'), credentials: null };
  lines.push(secret.result);

  const applications = await applicationLines(config, secret.credentials, clock);
  lines.push(...applications.lines);
  lines.push(...(await guarded('grants', () => grants(wh, secret.credentials, config, clock))));
  const configured = Boolean(config && (config.spApi.clientId || config.ads.clientId));
  lines.push(clockCheck(applications.answers, configured));
  if (existsSync(home.root)) lines.push(...(await guarded('disk space', () => diskSpace(home))));
  else lines.push(skipped('disk space', `${home.root} does not exist (see above)`));
  lines.push(nodeCheck(), ...(await guarded('DuckDB', duckDbCheck)));
  if (!scaled) {
    lines.push(skipped('PostgreSQL', 'a single home (MKTDATA_DATABASE_URL is not set)'));
    lines.push(skipped('shared folder', 'a single home (MKTDATA_SHARED_DIR is not used)'));
  } else lines.push(...(await guarded('shared folder', () => homePermissions(home, 'shared folder'))));
  return lines;
}

/** The lines of the SP-API and Ads API applications, and when Login with Amazon answered them. */
async function applicationLines(
  config: ConnectorConfig | null | undefined,
  credentials: Credentials[] | null,
  clock: Clock,
): Promise<{ lines: CheckResult[]; answers: DatedAnswer[] }> {
  const lines: CheckResult[] = [];
  const answers: DatedAnswer[] = [];
  for (const api of ['sp-api', 'ads'] as const) {
    const name = `${apiName(api)} application`;
    const needed = (credentials ?? []).some((c) => c.api === api);
    const result = await guarded(name, async () => {
      if (!config) return fail(name, 'not checked: the configuration could not be read', 'fix its line first');
      const found = await applicationCheck(config, api, needed, clock);
      if (found.answer) answers.push(found.answer);
      return found.result;
    });
    lines.push(...result);
  }
  return { lines, answers };
}

/** The grant lines: one per stored credential, or one saying why they could not be checked. */
async function grants(
  wh: Warehouse | null,
  credentials: Credentials[] | null,
  config: ConnectorConfig | null | undefined,
  clock: Clock,
): Promise<CheckResult[]> {
  if (!wh) return [skipped('grants', 'the control plane could not be opened (see its line above)')];
  // The secret key's own line already fails and says what to do: one broken setup, one ✗ line.
  if (!credentials)
    return [skipped('grants', 'the stored refresh tokens cannot be read without the secret key (see its line above)')];
  if (!config)
    return [fail('grants', 'not checked: the configuration could not be read', 'fix the configuration line first')];
  const connections = await connectionsByName(wh.db);
  const names = new Map(connections.map((c) => [c.id, c.name]));
  // By connection as `connections list` orders them, SP-API before Ads.
  const place = new Map(connections.map((c, i) => [c.id, i]));
  const sorted = [...credentials].sort(
    (a, b) => place.get(a.connectionId)! - place.get(b.connectionId)! || (a.api === 'sp-api' ? -1 : 1),
  );
  return grantChecks(sorted, config, names, clock);
}
