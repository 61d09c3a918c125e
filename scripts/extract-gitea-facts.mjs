// The only reader of a Gitea description: its facts without prose, into `apps/gateway/openapi/gitea-facts.json`.
//   node scripts/extract-gitea-facts.mjs /path/to/gitea/swagger.v1.json      (or GITEA_OPENAPI=/path/to/… )
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Recorded beside the source so a reader knows what the facts stand for. */
const TARGET_API = 'Gitea 1.25';
const PROSE = new Set(['description', 'summary', 'title', 'example']);

const source = process.argv[2] ?? process.env.GITEA_OPENAPI;
if (!source) {
  process.stderr.write('usage: node scripts/extract-gitea-facts.mjs <gitea swagger.v1.json> (or GITEA_OPENAPI=…)\n');
  process.exit(2);
}
const raw = readFileSync(source);
const gitea = JSON.parse(raw.toString('utf8'));
if (gitea.swagger !== '2.0' || !gitea.paths || !gitea.definitions) {
  process.stderr.write(`${source} is not a Swagger 2.0 description with paths and definitions\n`);
  process.exit(1);
}

/**
 * Inside `properties` the keys are field names (a field may be called `description`): only their values are cleaned.
 * @param {unknown} value @param {boolean} [namesHere] @returns {unknown}
 */
function facts(value, namesHere = false) {
  if (Array.isArray(value)) return value.map((v) => facts(v));
  if (!value || typeof value !== 'object') return value;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (!namesHere && (PROSE.has(key) || key.startsWith('x-go-'))) continue;
    out[key] = facts(v, !namesHere && key === 'properties');
  }
  return out;
}

/** @param {Record<string, unknown>} o */
const sorted = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));

const doc = {
  $comment: 'Facts from Gitea\'s API description, extracted by scripts/extract-gitea-facts.mjs. Do not edit by hand.',
  source: {
    api: TARGET_API,
    file: `${path.basename(source)} (go-gitea/gitea templates/swagger/v1_json.tmpl, as served at /swagger.v1.json)`,
    giteaVersion: gitea.info?.version ?? 'unknown',
    sha256: createHash('sha256').update(raw).digest('hex'),
    extracted: new Date().toISOString().slice(0, 10),
  },
  paths: sorted(facts(gitea.paths)),
  definitions: sorted(facts(gitea.definitions)),
  responses: sorted(facts(gitea.responses ?? {})),
  securityDefinitions: facts(gitea.securityDefinitions ?? {}),
  security: gitea.security ?? [],
};

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/gateway/openapi/gitea-facts.json');
writeFileSync(target, `${JSON.stringify(doc, null, 1)}\n`);
const ops = Object.values(doc.paths).reduce((n, p) => n + Object.keys(/** @type {object} */ (p)).length, 0);
process.stdout.write(`wrote ${target}: ${ops} operations, ${Object.keys(doc.definitions).length} definitions\n`);
