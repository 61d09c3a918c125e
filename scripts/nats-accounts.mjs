// The least-privilege NATS user of each service, derived from the contract (events and durable consumers) and the
// sources (the subjects each app calls); passwords stay
// environment references (docs/nats-security.md).
//   node scripts/nats-accounts.mjs            print the nats-server `authorization` block
//   node scripts/nats-accounts.mjs --write    update deploy/nats/accounts.conf
//   node scripts/nats-accounts.mjs --check    exit 1 when deploy/nats/accounts.conf is out of date
//   node scripts/nats-accounts.mjs --namespace <ns>   print it for an installation's `[nats] NAMESPACE` (after a build)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import 'reflect-metadata'; // the contracts' request classes carry decorators
import { EVENTS_STREAM, EVENT_CONSUMERS } from '@cairn/contracts';
import { REPO_ROOT } from './suite.mjs';
import { sourceFiles } from './lib/docs-sections.mjs';
import { subjectCatalogue } from './subject-catalogue.mjs';

export const ACCOUNTS_FILE = path.join(REPO_ROOT, 'deploy/nats/accounts.conf');

/** Its NATS user is the service name of its subjects. */
export const NATS_SERVICES = Object.freeze([
  { user: 'identity', app: 'identity-service' },
  { user: 'repo', app: 'repo-service' },
  { user: 'hooks', app: 'hooks-service' },
  { user: 'runners', app: 'runners-service' },
  { user: 'packages', app: 'packages-service' },
  { user: 'merge-check', app: 'merge-check-worker' },
  { user: 'gateway', app: 'gateway' },
]);

/** On the nats-server and in that app as [nats] PASSWORD. */
export const passwordVariable = (/** @type {string} */ user) => `CAIRN_NATS_PASSWORD_${user.replace(/-/g, '_').toUpperCase()}`;

const first = (/** @type {string} */ subject) => subject.split('.')[0];

/** The app's own source text (no tests, no generated code). @param {string} app */
function appSource(app) {
  return sourceFiles(path.join(REPO_ROOT, 'apps', app, 'src'))
    .filter((f) => !/\.(int-)?spec\.ts$/.test(f) && !f.includes(`${path.sep}generated${path.sep}`))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

/**
 * @typedef {{ user: string, app: string, serves: string[], calls: string[], events: string[], consumers: string[] }} ServiceAccess
 * @returns {ServiceAccess[]} what each service serves, calls, publishes and consumes (plain subjects and names, sorted)
 */
export function serviceAccess() {
  const { subjects, events } = subjectCatalogue();
  const consumers = Object.entries(EVENT_CONSUMERS);
  const stranger = consumers.find(([, c]) => !NATS_SERVICES.some((s) => s.user === c.service));
  if (stranger) throw new Error(`EVENT_CONSUMERS: ${stranger[0]} names no NATS user: ${stranger[1].service}`);
  const byConstant = new Map(subjects.map((e) => [e.constant, e.value]));
  const services = NATS_SERVICES.filter((s) => s.app !== 'gateway').map((s) => s.user);
  const health = (/** @type {string} */ user) => `${user}.health.check`;
  return NATS_SERVICES.map(({ user, app }) => {
    const src = appSource(app);
    const calls = new Set();
    for (const m of src.matchAll(/\b([A-Z]\w*Subjects)\.(\w+)\b/g)) {
      const value = byConstant.get(`${m[1]}.${m[2]}`);
      if (value && first(value) !== user) calls.add(value);
    }
    // `healthSubject(s)` over every service (the gateway's /readyz); each service also asks its own at start.
    if (/\bhealthSubject\(/.test(src)) for (const s of services) calls.add(health(s));
    const serves = app === 'gateway' ? [] : [...subjects.filter((e) => first(e.value) === user).map((e) => e.value), health(user)];
    if (app !== 'gateway') calls.add(health(user));
    const own = events.filter((e) => first(e.value) === user).map((e) => e.value);
    const ownConsumers = consumers.filter(([, c]) => c.service === user).map(([durable]) => durable).sort();
    return {
      user,
      app,
      serves: [...new Set(serves)].sort(),
      calls: [...calls].sort(),
      events: own.sort(),
      consumers: ownConsumers,
    };
  });
}

/**
 * `passwords`: literal passwords (tests); default: `$CAIRN_NATS_PASSWORD_<USER>` from nats-server's environment.
 * `namespace`: an installation's `NatsNamespace`, applied to subjects and to stream and consumer names.
 * @param {{ passwords?: Record<string, string>,
 *   namespace?: { subject: (s: string) => string, name: (n: string) => string } }} [options]
 */
export function accountsConfig(options = {}) {
  const map = (/** @type {string} */ s) => options.namespace?.subject(s) ?? s;
  const name = (/** @type {string} */ n) => options.namespace?.name(n) ?? n;
  const stream = name(EVENTS_STREAM);
  const q = (/** @type {string} */ s) => JSON.stringify(s);
  const list = (/** @type {string[]} */ xs, /** @type {string} */ indent) =>
    xs.length ? `[\n${xs.map((x) => `${indent}  ${q(x)}`).join(',\n')}\n${indent}]` : '[]';
  const blocks = serviceAccess().map((s) => {
    // Only its own durable consumers: another service's could be read (stealing its events) or reconfigured.
    const consumerApi = s.consumers.map(name).flatMap((durable) => [
      `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
      `$JS.API.CONSUMER.CREATE.${stream}.${durable}`,
      `$JS.API.CONSUMER.CREATE.${stream}.${durable}.>`,
      `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
      `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
      `$JS.ACK.${stream}.${durable}.>`,
    ]);
    const jsApi = s.events.length || s.consumers.length
      ? ['$JS.API.INFO', `$JS.API.STREAM.INFO.${stream}`, `$JS.API.STREAM.CREATE.${stream}`, ...consumerApi]
      : [];
    // Large messages travel as transfers (bus-transfer.ts): fetch from any other's `cairn.transfer.<owner>.<id>`,
    // serve its own.
    const publish = [...s.calls.map(map), ...s.events.map(map), map('cairn.transfer.>'), ...jsApi];
    const subscribe = [...s.serves.map(map), map(`cairn.transfer.${s.user}.>`), `_INBOX.${s.user}.>`];
    const password = options.passwords ? q(options.passwords[s.user] ?? '') : `$${passwordVariable(s.user)}`;
    return [
      `    # ${s.app}: serves ${s.serves.length} subject(s), calls ${s.calls.length}, publishes ${s.events.length} event subject(s)` +
        (s.consumers.length ? `, consumes with ${s.consumers.join(', ')}` : s.events.length ? ', uses JetStream' : ''),
      '    {',
      `      user: ${q(s.user)}`,
      `      password: ${password}`,
      '      permissions: {',
      `        publish: { allow: ${list(publish, '        ')} }`,
      `        subscribe: { allow: ${list(subscribe, '        ')} }`,
      '        # may answer the requests (and transfer fetches) it received, one reply to each',
      '        allow_responses: true',
      '      }',
      '    }',
    ].join('\n');
  });
  return [
    '# Generated by `node scripts/nats-accounts.mjs --write` from libs/contracts and the apps\' sources; do not edit.',
    '# One NATS user per Cairn service with least-privilege permissions (docs/nats-security.md). Include it from the',
    '# nats-server configuration; each password comes from the server\'s environment ($CAIRN_NATS_PASSWORD_<SERVICE>).',
    'authorization {',
    '  users = [',
    blocks.join('\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const mode = process.argv[2];
  if (mode === '--namespace') {
    // The apps' own rule (NatsNamespace) maps subjects and the stream name into the namespace.
    const { NatsNamespace } = await import('@cairn/platform');
    const ns = new NatsNamespace(process.argv[3] ?? '');
    process.stdout.write(accountsConfig({ namespace: ns }));
  } else if (mode === '--write') {
    writeFileSync(ACCOUNTS_FILE, accountsConfig());
  } else if (mode === '--check') {
    let current = '';
    try {
      current = readFileSync(ACCOUNTS_FILE, 'utf8');
    } catch {
      // missing: out of date
    }
    if (current !== accountsConfig()) {
      process.stderr.write('deploy/nats/accounts.conf is out of date: run `npm run docs`\n');
      process.exit(1);
    }
  } else if (mode) {
    process.stderr.write('usage: node scripts/nats-accounts.mjs [--write | --check | --namespace <ns>]\n');
    process.exit(2);
  } else {
    process.stdout.write(accountsConfig());
  }
}
