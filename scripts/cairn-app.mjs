#!/usr/bin/env node
// The container image's entry point: the app runs in this process, so SIGTERM (through tini) reaches it.
//   docker run cairn repo-service                    (Kubernetes: `args: ["repo-service"]`)
//   docker run cairn migrate --service repo          (Kubernetes: the init container's `args`)
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const appsDir = path.resolve(import.meta.dirname, '..', 'apps');
const apps = readdirSync(appsDir).filter((name) => existsSync(path.join(appsDir, name, 'dist', 'main.js'))).sort();
const [app, ...rest] = process.argv.slice(2);

if (app === 'migrate') {
  // The migration CLI reads its command line when loaded.
  const cli = path.resolve(import.meta.dirname, '..', 'tools', 'migrate', 'cli.mjs');
  process.argv = [process.argv[0], cli, 'deploy', ...rest];
  await import(pathToFileURL(cli).href);
} else if (app && apps.includes(app) && rest.length === 0) {
  await import(pathToFileURL(path.join(appsDir, app, 'dist', 'main.js')).href);
} else {
  process.stderr.write(
    `usage: cairn-app.mjs <app> | cairn-app.mjs migrate [--service <name>]\n` +
      `${app ? `unknown app or extra arguments: ${[app, ...rest].join(' ')}; ` : ''}apps: ${apps.join(', ')}\n`,
  );
  process.exit(64);
}
