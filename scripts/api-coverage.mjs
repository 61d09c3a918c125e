// Compares Cairn's published description with Gitea's (gitea-facts.json) and with what real clients call (client-operations.json).
//   npm run api-coverage               print the coverage and the client operations Cairn does not serve
//   npm run api-coverage -- --check    also exit 1 below the floors or when a missing client operation has no explanation
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './suite.mjs';

/** The floors issue 14 set: most of what clients call, and a fair share of the whole API. */
export const CLIENT_FLOOR = 110;
export const GITEA_FLOOR = 0.45;
const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options']);

const openapiDir = path.join(REPO_ROOT, 'apps/gateway/openapi');
/** @param {string} name */
const load = (name) => JSON.parse(readFileSync(path.join(openapiDir, name), 'utf8'));

/** `{owner}` and `{username}` name the same slot: operations are compared by method and path shape. */
const shape = (/** @type {string} */ method, /** @type {string} */ p) => `${method.toUpperCase()} ${p.replace(/\{[^}]+\}/g, '{}')}`;

/** @param {{ paths: Record<string, Record<string, unknown>> }} doc @returns {Map<string, string>} shape → "METHOD /path" */
function operations(doc) {
  const out = new Map();
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) if (METHODS.has(method)) out.set(shape(method, p), `${method.toUpperCase()} ${p}`);
  }
  return out;
}

export function coverage() {
  const cairn = operations(load('swagger.v1.json'));
  const gitea = operations(load('gitea-facts.json'));
  const clients = load('client-operations.json');
  const giteaServed = [...gitea.keys()].filter((k) => cairn.has(k)).length;
  /** @type {{ operationId: string, method: string, path: string, clients: string[] }[]} */
  const clientOps = clients.operations;
  const missing = clientOps.filter((o) => !cairn.has(shape(o.method, o.path)));
  /** @type {Record<string, string>} */
  const reasons = clients.unimplemented;
  return {
    gitea: { served: giteaServed, total: gitea.size },
    client: { served: clientOps.length - missing.length, total: clientOps.length },
    cairnOnly: [...cairn.keys()].filter((k) => !gitea.has(k)).length,
    missing: missing.map((o) => ({ ...o, reason: reasons[o.operationId] })),
    /** Stale, so --check refuses them too. */
    staleReasons: Object.keys(reasons).filter((id) => !missing.some((o) => o.operationId === id)),
  };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const c = coverage();
  const pct = (/** @type {number} */ n, /** @type {number} */ d) => `${((100 * n) / d).toFixed(1)}%`;
  const out = [
    `Client operations (Renovate, Woodpecker, Drone, Terraform, tea, the Go SDK): ${c.client.served}/${c.client.total} (floor ${CLIENT_FLOOR})`,
    `Gitea operations: ${c.gitea.served}/${c.gitea.total} = ${pct(c.gitea.served, c.gitea.total)} (floor ${GITEA_FLOOR * 100}%)`,
    `Cairn-only operations (GitHub-compatible or Cairn's own): ${c.cairnOnly}`,
  ];
  if (c.missing.length) {
    out.push('', 'Client operations Cairn does not serve:');
    for (const o of c.missing) {
      out.push(`  ${o.method} ${o.path} (${o.operationId}; ${o.clients.join(',')}): ${o.reason ?? 'NOT EXPLAINED'}`);
    }
  }
  for (const id of c.staleReasons) out.push(`stale explanation: ${id} is served now; remove it from client-operations.json`);
  process.stdout.write(`${out.join('\n')}\n`);
  if (process.argv.includes('--check')) {
    const problems = [];
    if (c.client.served < CLIENT_FLOOR) problems.push(`client operations ${c.client.served} < ${CLIENT_FLOOR}`);
    if (c.gitea.served < GITEA_FLOOR * c.gitea.total) problems.push(`Gitea operations ${pct(c.gitea.served, c.gitea.total)} < ${GITEA_FLOOR * 100}%`);
    const unexplained = c.missing.filter((o) => !o.reason).map((o) => o.operationId);
    if (unexplained.length) problems.push(`unexplained: ${unexplained.join(', ')}`);
    if (c.staleReasons.length) problems.push(`stale explanations: ${c.staleReasons.join(', ')}`);
    if (problems.length) {
      process.stderr.write(`api-coverage --check failed: ${problems.join('; ')}\n`);
      process.exit(1);
    }
  }
}
