import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Type } from '@nestjs/common';
import { implementedQuery, type GiteaFacts } from './openapi-document.js';
import { matchGiteaPath } from './gitea-paths.js';
import { collectRoutes } from './route-table.js';

/** Optional (`GITEA_OPENAPI=…`): Cairn's routes against a full Gitea description: served, differing, missing, added. */
export function compatibilityReport(controllers: Type<unknown>[], giteaFile: string | undefined, facts: GiteaFacts): string {
  if (!giteaFile) {
    return 'Gitea compatibility report: not run (set GITEA_OPENAPI=/path/to/gitea/swagger.v1.json to run it).\n';
  }
  const raw = readFileSync(giteaFile);
  const gitea = JSON.parse(raw.toString('utf8')) as GiteaFacts & { info?: { version?: string } };
  const lines: string[] = [`Gitea compatibility report against ${giteaFile} (Gitea ${gitea.info?.version ?? '?'})`];
  const sha = createHash('sha256').update(raw).digest('hex');
  if (facts.source?.sha256 && facts.source.sha256 !== sha) {
    lines.push(`  note: the committed facts were extracted from another file (${facts.source.giteaVersion ?? '?'}); re-extract with scripts/extract-gitea-facts.mjs to follow this one`);
  }
  const implemented = new Set<string>();
  const differs: string[] = [];
  const additions: string[] = [];
  for (const route of collectRoutes(controllers)) {
    const path = matchGiteaPath(route.path, route.method, gitea.paths);
    const key = `${route.method.toUpperCase()} ${path ?? route.path}`;
    if (!path) {
      additions.push(key);
      continue;
    }
    implemented.add(key);
    const op = gitea.paths[path][route.method] as { operationId?: string; parameters?: { name: string; in: string }[]; responses?: Record<string, unknown> };
    const success = Object.keys(op.responses ?? {}).filter((s) => s.startsWith('2'));
    const notes: string[] = [];
    if (!success.includes(String(route.successStatus))) notes.push(`answers ${route.successStatus}, Gitea ${success.join('/')}`);
    const reads = implementedQuery(route);
    const refused = (op.parameters ?? []).filter((p) => p.in === 'query' && !reads.has(p.name)).map((p) => p.name);
    if (refused.length) notes.push(`refuses (422) ${refused.join(', ')}`);
    if (notes.length) differs.push(`${key} (${op.operationId ?? '?'}): ${notes.join('; ')}`);
  }
  const missingByTag = new Map<string, number>();
  let total = 0;
  for (const [path, ops] of Object.entries(gitea.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      total += 1;
      if (implemented.has(`${method.toUpperCase()} ${path}`)) continue;
      const tag = ((op as { tags?: string[] }).tags ?? ['?'])[0];
      missingByTag.set(tag, (missingByTag.get(tag) ?? 0) + 1);
    }
  }
  lines.push(`  implemented: ${implemented.size} of Gitea's ${total} operations`);
  lines.push(`  implemented with differences: ${differs.length}`, ...differs.map((d) => `    ${d}`));
  lines.push(
    `  not implemented: ${total - implemented.size} (${[...missingByTag].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ')})`,
  );
  lines.push(`  Cairn additions (not in Gitea): ${additions.length}`, ...additions.map((a) => `    ${a}`));
  return `${lines.join('\n')}\n`;
}
