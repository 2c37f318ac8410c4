import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ControlStore } from '../../src/db/control-store.ts';
import type { Home } from '../../src/home.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import { registerStateGauges } from '../../src/metrics/state-gauges.ts';
import { hasPromtool, promtool } from '../helpers/metrics.ts';

const root = join(import.meta.dirname, '..', '..');
const rulesFile = 'docs/prometheus-alerts.yml';

interface Rule {
  alert?: string;
  expr?: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The names of every metric `mktdata serve` exposes (its registry, without reading any gauge). */
function exposedNames(): Set<string> {
  const metrics = new Metrics();
  registerStateGauges(metrics.registry, { wh: {} as ControlStore, home: {} as Home, pipelines: [] });
  return new Set(metrics.registry.getMetricsAsArray().flatMap((m) => [m.name, `${m.name}_count`, `${m.name}_sum`]));
}

describe('docs/prometheus-alerts.yml', () => {
  it('names only metrics mktdata exposes, and gives every alert a severity and a summary', () => {
    const { groups } = parse(readFileSync(join(root, rulesFile), 'utf8')) as {
      groups: { name: string; rules: Rule[] }[];
    };
    expect(groups.map((g) => g.name)).toEqual([
      'mktdata-pipelines',
      'mktdata-freshness',
      'mktdata-webhooks',
      'mktdata-disk',
    ]);
    const names = exposedNames();
    for (const rule of groups.flatMap((g) => g.rules)) {
      expect(rule.alert).toMatch(/^Mktdata[A-Za-z]+$/);
      expect(['warning', 'critical']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      for (const metric of rule.expr!.match(/\bmktdata_\w+/g) ?? []) expect(names, rule.alert).toContain(metric);
    }
  });

  it('passes promtool check rules, and each alert fires on the series of its promtool unit test', () => {
    if (!hasPromtool()) {
      console.warn('promtool is not installed (Debian package prometheus): the rules were only read as YAML');
      return;
    }
    const checked = promtool(['check', 'rules', join(root, rulesFile)]);
    expect(checked.output).toContain('SUCCESS: 8 rules found');
    expect(checked.code).toBe(0);
    const tested = promtool(['test', 'rules', join(root, 'test/docs/prometheus-alerts.promtool.yml')]);
    expect(tested.code, tested.output).toBe(0);
  });
});
