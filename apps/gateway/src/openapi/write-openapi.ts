import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { API_CONTROLLERS } from '../routes/controllers.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { compatibilityReport } from './compat-report.js';
import { COMMITTED_DOCUMENT, readGiteaFacts } from './openapi-files.js';

// Regenerates swagger.v1.json from the controllers and gitea-facts.json; `--check` exits 1 when stale (CI).
const facts = readGiteaFacts();
const text = `${JSON.stringify(buildOpenApiDocument(API_CONTROLLERS, facts), null, 2)}\n`;
if (process.argv.includes('--check')) {
  let current: string;
  try {
    current = readFileSync(COMMITTED_DOCUMENT, 'utf8');
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
  writeFileSync(COMMITTED_DOCUMENT, text);
  process.stdout.write(`wrote ${COMMITTED_DOCUMENT}\n`);
}
process.stdout.write(compatibilityReport(API_CONTROLLERS, process.env.GITEA_OPENAPI || undefined, facts));
