/**
 * deploy/observability's recording rules and Grafana dashboard parse as PromQL (Prometheus's own grammar), reference
 * only metrics the code registers (one home for metric names: libs/platform/src/metrics), use every Cairn metric,
 * and read only `cairn:` series the rules record. The Prometheus queries of the Kubernetes manifests (KEDA's trigger
 * for merge-check-worker) are held to the same names.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { parse } from 'yaml';
import { parser } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { platformMetrics } from '../../libs/platform/src/metrics/dead-letters.js';
import { gatewayHttpMetrics } from '../../libs/platform/src/metrics/cairn-metrics.js';
import { render } from '../kubernetes/test/render.js';

const DIR = import.meta.dirname;

/** Parses PromQL with Prometheus's own grammar; throws naming the expression when it does not parse. */
function parsePromql(expr: string) {
  const tree = parser.parse(expr);
  tree.iterate({
    enter: (n) => {
      if (n.type.isError) throw new Error(`PromQL syntax error at ${n.from} in: ${expr}`);
    },
  });
  return tree;
}

/** The series names a PromQL expression selects (metric names and recorded names). */
function seriesIn(expr: string): Set<string> {
  const names = new Set<string>();
  parsePromql(expr).iterate({
    enter: (n) => {
      if (n.type.name === 'Identifier' && n.node.parent?.type.name === 'VectorSelector') names.add(expr.slice(n.from, n.to));
    },
  });
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
  it('reads series names out of PromQL and refuses bad syntax (the checks below can fail)', () => {
    expect(seriesIn('histogram_quantile(0.95, sum by (service, le) (rate(cairn_x_bucket{a="b",c=~"$svc"}[5m])))'))
      .toEqual(new Set(['cairn_x_bucket']));
    expect(seriesIn('sum by (q) (a:b:c) / on (q) group_left max(cairn_y) > 0')).toEqual(new Set(['a:b:c', 'cairn_y']));
    expect(() => seriesIn('sum by (q (rate(x[5m]))')).toThrow(/syntax error/);
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

  // Renders the manifests (spawns kustomize): a process's time on a loaded machine, not a unit test's 5 s.
  it("holds the Kubernetes manifests' Prometheus queries (KEDA) to registered metrics", { timeout: 60_000 }, async () => {
    const known = new Set([...(await exposedNames(platformMetrics)), ...recorded]);
    const queries = render('base')
      .filter((o) => o.kind === 'ScaledObject')
      .flatMap((o) => (o.spec.triggers as { type: string; metadata: { query?: string } }[]))
      .filter((t) => t.type === 'prometheus')
      .map((t) => t.metadata.query ?? '');
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) for (const s of seriesIn(q)) expect(known, q).toContain(s);
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
