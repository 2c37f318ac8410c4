import type { Api } from '../connectors/credentials.ts';

/** How a check of `mktdata doctor` ended: it holds, it does not (or could not be run), or it does not apply here. */
export type CheckStatus = 'ok' | 'fail' | 'skipped';

/** One line of `mktdata doctor`: what was checked, what was found, and, when it fails, what to do. */
export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** What was found, in plain words; never a secret. */
  detail: string;
  /** What to do about a failure. */
  fix?: string;
}

/** A passing check. */
export const ok = (name: string, detail: string): CheckResult => ({ name, status: 'ok', detail });

/** A failing check and what to do about it. */
export const fail = (name: string, detail: string, fix: string): CheckResult => ({
  name,
  status: 'fail',
  detail,
  fix,
});

/** A check that does not apply to this install. */
export const skipped = (name: string, detail: string): CheckResult => ({ name, status: 'skipped', detail });

/**
 * Runs a check that may throw: an error it did not expect is a failure that says why it could not run, never a pass
 * (a check that cannot be run proves nothing).
 */
export async function guarded(
  name: string,
  check: () => Promise<CheckResult | CheckResult[]> | CheckResult | CheckResult[],
): Promise<CheckResult[]> {
  try {
    const result = await check();
    return Array.isArray(result) ? result : [result];
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return [
      fail(name, `could not be checked: ${message}`, 'fix what the message names and run `mktdata doctor` again'),
    ];
  }
}

/** The line a check prints: `✓ name: detail`, `✗ name: detail — fix`, `- name: not applicable: detail`. */
export function checkLine(result: CheckResult): string {
  if (result.status === 'ok') return `✓ ${result.name}: ${result.detail}`;
  if (result.status === 'skipped') return `- ${result.name}: not applicable: ${result.detail}`;
  return `✗ ${result.name}: ${result.detail} — ${result.fix}`;
}

/** The API's name as the marketplace calls it. */
export const apiName = (api: Api) => (api === 'sp-api' ? 'SP-API' : 'Ads API');
