/**
 * deploy/observability's recording rules and Grafana dashboard reference only metrics the code registers (one home
 * for metric names: libs/platform/src/metrics), every Cairn metric is used there, and every `cairn:` series the
 * dashboard reads is recorded by the rules.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { platformMetrics } from './dead-letters.js';
import { gatewayHttpMetrics } from './cairn-metrics.js';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../deploy/observability');
const PROMQL_KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset']);

/** The series names a PromQL expression reads (metric names and recorded names; not functions, labels or keywords). */
export function seriesIn(expr: string): Set<string> {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // strings
    .replace(/\{[^}]*\}/g, '') // label matchers (and Grafana variables in them)
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '') // label lists
    .replace(/\[[^\]]*\]/g, ''); // ranges
  const names = new Set<string>();
  for (const m of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*(?=\s*(\(?))/g)) {
    const name = m[0];
    const isCall = bare.slice((m.index ?? 0) + name.length).trimStart().startsWith('(');
    if (!isCall && !PROMQL_KEYWORDS.has(name)) names.add(name);
  }
  return names;
}

/** Every series name a registry produces (histograms: `_bucket`, `_sum`, `_count`; counters: `_total`). */
async function exposedNames(registry: Registry): Promise<Set<string>> {
  const names = new Set<string>();
  const metrics = (await registry.getMetricsAsJSON()) as MetricObjectWithValues<MetricValue<string>>[];
  for (const m of metrics) {
    names.add(m.name);
    if (m.type === ('histogram' as never)) for (const s of ['_bucket', '_sum', '_count']) names.add(`${m.name}${s}`);
  }
  return names;
}

interface RuleFile {
  groups: { name: string; rules: { record?: string; alert?: string; expr: string }[] }[];
}
interface Dashboard {
  panels: { type: string; title: string; targets?: { expr: string }[] }[];
}

const rules = parse(readFileSync(path.join(DIR, 'recording-rules.yml'), 'utf8')) as RuleFile;
const dashboard = JSON.parse(readFileSync(path.join(DIR, 'grafana-dashboard.json'), 'utf8')) as Dashboard;
const ruleList = rules.groups.flatMap((g) => g.rules);
const recorded = new Set(ruleList.flatMap((r) => (r.record ? [r.record] : [])));
const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

describe('deploy/observability', () => {
  it('reads series names out of PromQL (the check below can find a wrong name)', () => {
    expect(seriesIn('histogram_quantile(0.95, sum by (service, le) (rate(cairn_x_bucket{a="b",c=~"$svc"}[5m])))'))
      .toEqual(new Set(['cairn_x_bucket']));
    expect(seriesIn('sum by (q) (a:b:c) / on (q) group_left max(cairn_y) > 0')).toEqual(new Set(['a:b:c', 'cairn_y']));
  });

  it('references only metrics the code registers, or series the rules record', async () => {
    const defaults = new Registry();
    collectDefaultMetrics({ register: defaults });
    const known = new Set([
      ...(await exposedNames(platformMetrics)),
      ...(await exposedNames(gatewayHttpMetrics)),
      ...(await exposedNames(defaults)),
    ]);
    const unknown: string[] = [];
    for (const r of ruleList) for (const s of seriesIn(r.expr)) if (!known.has(s)) unknown.push(`rule ${r.record ?? r.alert}: ${s}`);
    for (const { panel, expr } of dashboardExprs) {
      for (const s of seriesIn(expr)) if (!known.has(s) && !recorded.has(s)) unknown.push(`panel "${panel}": ${s}`);
    }
    expect(unknown).toEqual([]);
    expect(ruleList.length).toBeGreaterThan(10);
    expect(dashboardExprs.length).toBeGreaterThan(10);
  });

  it('uses every Cairn metric and every recorded series somewhere', async () => {
    const used = new Set([...ruleList, ...dashboardExprs].flatMap((x) => [...seriesIn(x.expr)]));
    const cairnMetrics = [...(await platformMetrics.getMetricsAsJSON()), ...(await gatewayHttpMetrics.getMetricsAsJSON())]
      .map((m) => m.name)
      .filter((name) => name.startsWith('cairn_'));
    const unused = cairnMetrics.filter((name) => ![...used].some((s) => s === name || s.startsWith(`${name}_`)));
    expect(unused).toEqual([]);
    expect([...recorded].filter((r) => !used.has(r))).toEqual([]);
  });
});
