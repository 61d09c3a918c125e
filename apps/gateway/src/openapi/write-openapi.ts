import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { API_CONTROLLERS } from '../routes/controllers.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { compatibilityReport } from './compat-report.js';
import { COMMITTED_DOCUMENT, readGiteaFacts } from './openapi-files.js';

/**
 * `node apps/gateway/dist/openapi/write-openapi.js [--check]`: regenerates `apps/gateway/openapi/swagger.v1.json`
 * from the controllers and the Gitea facts committed beside it (`gitea-facts.json`, see
 * scripts/extract-gitea-facts.mjs). Reads nothing outside the repository. With `--check` it writes nothing and exits
 * 1 when the committed copy is out of date (CI runs this). Either way it ends with the compatibility report against a
 * full Gitea description when `GITEA_OPENAPI` names one, and says so when it was not run.
 */
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
