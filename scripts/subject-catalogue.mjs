// The Markdown catalogue of subjects (from the built contract's `EVENT_GROUPS`: build first) and queues, with their doc comments.
//   node scripts/subject-catalogue.mjs            print the tables
//   node scripts/subject-catalogue.mjs --write    update the generated section of docs/architecture.md
//   node scripts/subject-catalogue.mjs --check    exit 1 when that section is out of date
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './suite.mjs';
import 'reflect-metadata'; // the contracts' request classes carry decorators
import { EVENT_GROUPS, EVENTS_STREAM } from '@cairn/contracts';
import { docOf, parseSource, replaceSection, sourceFiles, ts, unwrap } from './lib/docs-sections.mjs';

const CONTRACTS = path.join(REPO_ROOT, 'libs/contracts/src');
const DOC = path.join(REPO_ROOT, 'docs/architecture.md');

/**
 * @typedef {{ constant: string, value: string, doc: string, file: string }} Entry
 */

/** @param {string} file @returns {{ name: string, entries: Entry[], doc: string }[]} */
function constantObjects(file) {
  const sf = parseSource(file);
  /** @type {{ name: string, entries: Entry[], doc: string }[]} */
  const out = [];
  for (const stmt of sf.statements) {
    if (!ts.isVariableStatement(stmt)) continue;
    if (!stmt.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const decl of stmt.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || !decl.initializer) continue;
      const init = unwrap(decl.initializer);
      const rel = path.relative(REPO_ROOT, file);
      if (ts.isStringLiteralLike(init)) {
        out.push({ name: decl.name.text, doc: '', entries: [{ constant: decl.name.text, value: init.text, doc: docOf(stmt), file: rel }] });
        continue;
      }
      if (!ts.isObjectLiteralExpression(init)) continue;
      /** @type {Entry[]} */
      const entries = [];
      for (const p of init.properties) {
        if (!ts.isPropertyAssignment(p) || !p.name || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) continue;
        const v = unwrap(p.initializer);
        if (!ts.isStringLiteralLike(v)) continue;
        entries.push({ constant: `${decl.name.text}.${p.name.text}`, value: v.text, doc: docOf(p), file: rel });
      }
      if (entries.length) out.push({ name: decl.name.text, doc: docOf(stmt), entries });
    }
  }
  return out;
}

/** `[Queues.x]: 'name'` by queue constant. @param {string} file @returns {Map<string, string>} */
function jobNames(file) {
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const stmt of parseSource(file).statements) {
    if (!ts.isVariableStatement(stmt)) continue;
    for (const decl of stmt.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || decl.name.text !== 'QueueJobNames' || !decl.initializer) continue;
      const init = unwrap(decl.initializer);
      if (!ts.isObjectLiteralExpression(init)) continue;
      for (const p of init.properties) {
        if (!ts.isPropertyAssignment(p) || !ts.isComputedPropertyName(p.name)) continue;
        const v = unwrap(p.initializer);
        if (ts.isStringLiteralLike(v)) out.set(p.name.expression.getText(), v.text);
      }
    }
  }
  return out;
}

/**
 * `[XSubjects.y]: RpcPair<Request, Reply>` in `*.rpc.ts`, by constant.
 * @param {string} file @returns {Map<string, { request: string, reply: string }>}
 */
function rpcPairs(file) {
  /** @type {Map<string, { request: string, reply: string }>} */
  const out = new Map();
  for (const stmt of parseSource(file).statements) {
    if (!ts.isInterfaceDeclaration(stmt)) continue;
    for (const m of stmt.members) {
      if (!ts.isPropertySignature(m) || !m.name || !ts.isComputedPropertyName(m.name) || !m.type) continue;
      if (!ts.isTypeReferenceNode(m.type) || m.type.typeArguments?.length !== 2) continue;
      const [request, reply] = m.type.typeArguments.map((t) => t.getText().replace(/\s+/g, ' '));
      out.set(m.name.expression.getText(), { request, reply });
    }
  }
  return out;
}

/** Also read by scripts/nats-accounts.mjs to derive each service's NATS permissions. */
export function subjectCatalogue() {
  const files = sourceFiles(CONTRACTS);
  const subjectFiles = files.filter((f) => /subjects\.ts$/.test(f) && path.basename(f) !== 'subjects.ts');
  const queueFiles = files.filter((f) => path.basename(f) === 'queues.ts');

  const subjects = subjectFiles.flatMap(constantObjects).flatMap((o) => o.entries);
  const queues = queueFiles.flatMap(constantObjects).flatMap((o) => o.entries);
  return { files, subjects, events: contractEvents(files), queues, queueFiles, streamName: EVENTS_STREAM };
}

/**
 * The doc comment of each constant wherever it is declared (the sources are read for the comments only).
 * @param {string[]} files @returns {Entry[]}
 */
function contractEvents(files) {
  const declared = new Map(files.flatMap(constantObjects).flatMap((o) => o.entries).map((e) => [e.constant, e]));
  return Object.entries(EVENT_GROUPS).flatMap(([group, subjects]) =>
    Object.entries(subjects).map(([key, value]) => {
      const constant = `${group}.${key}`;
      const source = declared.get(constant);
      return { constant, value, doc: source?.doc ?? '', file: source?.file ?? '' };
    }),
  );
}

/** @returns {string} */
export function catalogue() {
  const { files, subjects, events, queues, queueFiles, streamName } = subjectCatalogue();
  const jobs = new Map(queueFiles.flatMap((f) => [...jobNames(f)]));
  const pairs = new Map(files.filter((f) => /\.rpc\.ts$/.test(f)).flatMap((f) => [...rpcPairs(f)]));
  const pairOf = (/** @type {Entry} */ e) => {
    // Every `<service>.health.check` shares one pair, declared once in RpcContract.
    const p = e.value.endsWith('.health.check') ? { request: 'HealthRequest', reply: 'HealthReply' } : pairs.get(e.constant);
    return p ? `\`${p.request}\` → \`${p.reply}\`` : '?';
  };

  const byValue = (/** @type {Entry} */ a, /** @type {Entry} */ b) => a.value.localeCompare(b.value);
  const lines = [];
  lines.push(
    `_Generated by \`node scripts/subject-catalogue.mjs --write\` from \`libs/contracts\`; do not edit by hand._`,
    '',
    `### Request-reply subjects (${subjects.length})`,
    '',
    'Served by the queue group `<service>-service` of the service named by the first token. Every service also',
    'answers `<service>.health.check` (`healthSubject(service)`).',
    '',
    'Request and reply types are the pairs of `RpcContract` (`libs/contracts/src/**/*.rpc.ts`).',
    '',
    '| Subject | Constant | Request → reply | What it does |',
    '|---|---|---|---|',
    ...subjects.sort(byValue).map((e) => `| \`${e.value}\` | \`${e.constant}\` | ${pairOf(e)} | ${e.doc} |`),
    '',
    `### Domain events (${events.length})`,
    '',
    `Published through each service's outbox to the JetStream stream \`${streamName}\`` +
      ' (subjects `*.evt.>`); consumers are durable and de-duplicate on the event id.',
    '',
    '| Subject | Constant | Meaning |',
    '|---|---|---|',
    ...events.sort(byValue).map((e) => `| \`${e.value}\` | \`${e.constant}\` | ${e.doc} |`),
    '',
    `### BullMQ queues (${queues.length})`,
    '',
    'Names are never changed once shipped; Redis keys carry the `[queue] PREFIX`.',
    '',
  );
  if (queues.length) {
    lines.push(
      '| Queue | Constant | Job name | Jobs |',
      '|---|---|---|---|',
      ...queues.sort(byValue).map((e) => `| \`${e.value}\` | \`${e.constant}\` | \`${jobs.get(e.constant) ?? '?'}\` | ${e.doc} |`),
    );
  } else {
    lines.push('_None yet._');
  }
  return `${lines.join('\n')}\n`;
}

const mode = process.argv[2];
const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (!isMain) {
  // imported for its catalogue
} else if (mode === '--write' || mode === '--check') {
  const ok = replaceSection(DOC, 'subjects', catalogue(), { check: mode === '--check' });
  if (!ok) {
    process.stderr.write('docs/architecture.md: the subject catalogue is out of date: run `npm run docs`\n');
    process.exit(1);
  }
} else if (mode) {
  process.stderr.write('usage: node scripts/subject-catalogue.mjs [--write | --check]\n');
  process.exit(2);
} else {
  process.stdout.write(catalogue());
}
