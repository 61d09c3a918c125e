import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_CONTROLLERS } from '../routes/controllers.js';
import { buildOpenApiDocument, type GiteaDescription } from './openapi-document.js';

/**
 * `node apps/gateway/dist/openapi/write-openapi.js [--check]`: regenerates `apps/gateway/openapi/swagger.v1.json`
 * from the controllers and Gitea's description (`../shared/reference/gitea-openapi-subset.json`). With `--check` it
 * writes nothing and exits 1 when the committed copy is out of date (CI runs this).
 */
const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = resolve(here, '../../../..');
const committed = resolve(projectRoot, 'apps/gateway/openapi/swagger.v1.json');
const giteaPath = process.env.GITEA_OPENAPI ?? resolve(projectRoot, '../shared/reference/gitea-openapi-subset.json');

const gitea = JSON.parse(readFileSync(giteaPath, 'utf8')) as GiteaDescription;
const text = `${JSON.stringify(buildOpenApiDocument(API_CONTROLLERS, gitea), null, 2)}\n`;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(committed, 'utf8');
  } catch {
    current = '';
  }
  if (current !== text) {
    process.stderr.write(
      'apps/gateway/openapi/swagger.v1.json is out of date: run `npm run openapi` and commit the result.\n',
    );
    process.exit(1);
  }
  process.stdout.write('OpenAPI description is up to date.\n');
} else {
  writeFileSync(committed, text);
  process.stdout.write(`wrote ${committed}\n`);
}
