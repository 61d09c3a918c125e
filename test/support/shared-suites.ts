/**
 * The e2e project's globalSetup, in Vitest's main process for the whole run. It deploys the migrations once into a
 * template database that every suite of the run copies (`startTestSuite`), and is the shared-suite coordinator: it
 * answers `POST /suites` (loopback only) with `sharedTestSuite`'s settings: the first request for a set of settings
 * starts a suite exactly as `startTestSuite` does, later ones (from any worker) get the same running suite;
 * `POST /release` is a file letting go of it. Every suite still running is stopped when the run ends. A suite that failed to start answers every later request with the
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

  const defaultKey = JSON.stringify(sharedSuiteSettings());
  const holders = new Map<string, number>();

  const suiteFor = (options: SharedTestSuiteOptions): { key: string; suite: Promise<TestSuite> } => {
    const settings = sharedSuiteSettings(options);
    const key = JSON.stringify(settings);
    requests.set(key, (requests.get(key) ?? 0) + 1);
    holders.set(key, (holders.get(key) ?? 0) + 1);
    let suite = suites.get(key);
    if (!suite) {
      suite = startTestSuite({ ...settings, templateDatabase: template.name });
      suite.catch(() => undefined); // answered to each requester; never an unhandled rejection here
      suites.set(key, suite);
    }
    return { key, suite };
  };

  // The default suite serves most files and stays for the whole run; one with other settings is stopped as soon as
  // no file holds it (a later file asking starts it again): every suite holds some 25–35 PostgreSQL connections.
  const release = async (key: string): Promise<void> => {
    const left = (holders.get(key) ?? 0) - 1;
    holders.set(key, Math.max(0, left));
    const suite = suites.get(key);
    if (left > 0 || key === defaultKey || !suite) return;
    suites.delete(key);
    await (await suite.catch(() => undefined))?.stop();
    process.stderr.write(`e2e: shared suite ${key} served ${requests.get(key)} file(s), stopped: no file holds it\n`);
  };

  const server = createServer((req, res) => {
    void answer(req, res, suiteFor, release);
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
  suiteFor: (options: SharedTestSuiteOptions) => { key: string; suite: Promise<TestSuite> },
  release: (key: string) => Promise<void>,
): Promise<void> {
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  try {
    if (req.method !== 'POST' || (req.url !== '/suites' && req.url !== '/release')) {
      return reply(404, { message: `${req.method} ${req.url}: not here` });
    }
    let text = '';
    for await (const chunk of req) text += String(chunk);
    if (req.url === '/release') {
      await release((JSON.parse(text) as { key: string }).key);
      return reply(200, {});
    }
    const { key, suite } = suiteFor(JSON.parse(text) as SharedTestSuiteOptions);
    try {
      reply(200, describe(key, await suite));
    } catch (err) {
      await release(key);
      throw err;
    }
  } catch (err) {
    reply(500, { message: (err as Error).message });
  }
}

/** The part of a running suite a test file in another process can use. */
function describe(key: string, suite: TestSuite): SharedSuiteDescription {
  const { baseUrl, rootUrl, sshPort, databaseUrl, env, dataDir, apps, opsUrls } = suite;
  return { key, baseUrl, rootUrl, sshPort, databaseUrl, env, dataDir, apps: apps.map(({ name, pid }) => ({ name, pid })), opsUrls };
}
