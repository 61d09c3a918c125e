/**
 * The e2e project's globalSetup, in Vitest's main process for the whole run. It deploys the migrations once into a
 * template database that every suite of the run copies (`startTestSuite`), and is the shared-suite coordinator: it
 * answers `POST /suites` (loopback only) with `sharedTestSuite`'s settings: the first request for a set of settings
 * starts a suite exactly as `startTestSuite` does, later ones (from any worker) get the same running suite. Every
 * suite it started is stopped when the run ends. A suite that failed to start answers every later request with the
 * same error (naming the app and its last log lines), so the files after it fail fast instead of retrying.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import {
  SHARED_SUITES_URL, TEMPLATE_DATABASE, createTemplateDatabase, sharedSuiteSettings, startTestSuite, type SharedSuiteDescription, type SharedTestSuiteOptions, type TestSuite,
} from './suite.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await createTemplateDatabase();
  project.provide(TEMPLATE_DATABASE, template.name);
  const suites = new Map<string, Promise<TestSuite>>();
  const requests = new Map<string, number>();

  const suiteFor = (options: SharedTestSuiteOptions): Promise<TestSuite> => {
    const settings = sharedSuiteSettings(options);
    const key = JSON.stringify(settings);
    requests.set(key, (requests.get(key) ?? 0) + 1);
    let suite = suites.get(key);
    if (!suite) {
      suite = startTestSuite({ ...settings, templateDatabase: template.name });
      suite.catch(() => undefined); // answered to each requester; never an unhandled rejection here
      suites.set(key, suite);
    }
    return suite;
  };

  const server = createServer((req, res) => {
    void answer(req, res, suiteFor);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  }).catch(async (err: unknown) => {
    await template.drop();
    throw err;
  });
  project.provide(SHARED_SUITES_URL, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);

  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const [key, suite] of suites) {
      const running = await suite.catch(() => undefined);
      await running?.stop();
      process.stderr.write(`e2e: shared suite ${key} served ${requests.get(key)} file(s)\n`);
    }
    await template.drop();
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  suiteFor: (options: SharedTestSuiteOptions) => Promise<TestSuite>,
): Promise<void> {
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  try {
    if (req.method !== 'POST' || req.url !== '/suites') return reply(404, { message: `${req.method} ${req.url}: not here` });
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const suite = await suiteFor(JSON.parse(text) as SharedTestSuiteOptions);
    reply(200, describe(suite));
  } catch (err) {
    reply(500, { message: (err as Error).message });
  }
}

/** The part of a running suite a test file in another process can use. */
function describe(suite: TestSuite): SharedSuiteDescription {
  const { baseUrl, rootUrl, sshPort, databaseUrl, env, dataDir, apps, opsUrls } = suite;
  return { baseUrl, rootUrl, sshPort, databaseUrl, env, dataDir, apps: apps.map(({ name, pid }) => ({ name, pid })), opsUrls };
}
