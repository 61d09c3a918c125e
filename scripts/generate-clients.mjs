// `prebuild`: Prisma clients (gitignored) when missing or older than their schema, so a fresh clone builds; quiet when nothing to do.
//   node scripts/generate-clients.mjs [--force] [service…]   only the named services (the Nx `prisma` targets)
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { generate, listServices } from '../tools/migrate/index.mjs';
import { DEFAULT_PRISMA_DIR, readSchemaFiles, servicePaths } from '../tools/migrate/layout.mjs';

const force = process.argv.includes('--force');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const require = createRequire(import.meta.url);
const prismaStamp = statSync(require.resolve('prisma/package.json')).mtimeMs;

/** @param {string} service @returns {string | null} why the client must be (re)generated, or null */
function staleness(service) {
  const { schema } = servicePaths(DEFAULT_PRISMA_DIR, service);
  const files = readSchemaFiles(schema);
  /** @type {string | undefined} */
  let output;
  for (const f of files) {
    const generator = /generator\s+\w+\s*\{([^}]*)\}/m.exec(f.content)?.[1];
    const rel = generator && /^\s*output\s*=\s*"([^"]+)"/m.exec(generator)?.[1];
    if (rel) output = path.resolve(path.dirname(f.path), rel);
  }
  if (!output) return 'no generator output configured';
  if (!existsSync(output)) return 'not generated yet';
  const generated = readdirSync(output, { withFileTypes: true }).filter((e) => e.isFile());
  if (!generated.length) return 'not generated yet';
  const oldestOutput = Math.min(...generated.map((e) => statSync(path.join(output, e.name)).mtimeMs));
  const newestInput = Math.max(prismaStamp, ...files.map((f) => statSync(f.path).mtimeMs));
  return newestInput > oldestOutput ? 'schema changed' : null;
}

try {
  const services = listServices();
  const unknown = only.filter((s) => !services.includes(s));
  if (unknown.length) throw new Error(`unknown service(s): ${unknown.join(', ')} (services: ${services.join(', ')})`);
  const todo = services.filter((s) => (!only.length || only.includes(s)) && (force || staleness(s) !== null));
  for (const service of todo) {
    await generate({ service });
    process.stdout.write(`prisma client generated for ${service}\n`);
  }
} catch (err) {
  process.stderr.write(`generate: ${/** @type {Error} */ (err).message}\n`);
  process.exit(1);
}
