// Every `SettingSpec` the apps read (apps/*/src, libs/*/src) as a Markdown table with its doc comment.
//   node scripts/settings-table.mjs            print the table
//   node scripts/settings-table.mjs --write    update the generated section of README.md
//   node scripts/settings-table.mjs --check    exit 1 when that section is out of date
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './suite.mjs';
import { cell, docOf, parseSource, prop, replaceSection, sourceFiles, ts, unwrap } from './lib/docs-sections.mjs';

const README = path.join(REPO_ROOT, 'README.md');

const FALLBACK_DOCS = {
  DATABASE_URL: 'PostgreSQL database (each data-owning service uses its own schema in it).',
  NATS_URL: 'NATS server(s) with JetStream, comma-separated.',
  REDIS_URL: 'Redis for BullMQ queues, throttles and caches.',
  RUN_MODE: '`dev`, `prod` or `test`; `prod` hides internal error messages and refuses to start while a secret (`[security] INTERNAL_TOKEN`, `SECRET_KEY`) is unset or at its public development value.',
  CAIRN__SERVER__HTTP_PORT: 'Port the gateway listens on.',
  CAIRN__SERVER__ROOT_URL: 'Public URL of the instance (links, clone URLs, `Link` headers).',
  CAIRN__SERVER__SSH_PORT: 'Port of the built-in SSH server (git over SSH).',
  CAIRN__REPOSITORY__ROOT: 'Folder of the bare repositories (shared by repo-service and merge-check-worker).',
  CAIRN__SERVICE__REQUIRE_SIGNIN_VIEW: '`true`: anonymous visitors see nothing; `expensive`: not the costly pages.',
  CAIRN__API__DEFAULT_PAGING_NUM: 'Default page size of API lists.',
  CAIRN__API__MAX_RESPONSE_ITEMS: 'Largest page size of API lists.',
  CAIRN__API__DEFAULT_GIT_TREES_PER_PAGE: 'Default page size of git tree listings.',
  CAIRN__API__DEFAULT_MAX_BLOB_SIZE: 'Largest blob returned inline by the contents API (bytes).',
  CAIRN__API__DEFAULT_MAX_RESPONSE_SIZE: 'Largest response of file-serving APIs (bytes).',
  CAIRN__API__ENABLE_SWAGGER: 'Serve `/swagger.v1.json`.',
};

/** @param {string | undefined} section @param {string} key */
function envName(section, key) {
  if (!section) return key;
  return `CAIRN__${section.replace(/[.-]/g, '_').toUpperCase()}__${key.toUpperCase()}`;
}

/** @param {ts.Expression} e @param {Map<string, string>} args */
function literal(e, args) {
  e = unwrap(e);
  if (ts.isStringLiteralLike(e)) return e.text;
  if (ts.isIdentifier(e) && args.has(e.text)) return args.get(e.text);
  return undefined;
}

/**
 * @typedef {{ section: string | undefined, key: string, def: string, doc: string, owner: string }} Setting
 */

/**
 * @param {ts.ObjectLiteralExpression} obj
 * @param {Map<string, string>} args  parameter → argument text, when obj is the body of a helper call
 * @param {string} doc @param {string} owner @returns {Setting | null}
 */
function setting(obj, args, doc, owner) {
  const key = prop(obj, 'key');
  const parse = prop(obj, 'parse');
  const def = prop(obj, 'default');
  if (!key || !parse || !def || !ts.isPropertyAssignment(key) || !ts.isPropertyAssignment(def)) return null;
  const keyText = literal(key.initializer, args);
  if (keyText === undefined) return null;
  const sectionProp = prop(obj, 'section');
  const section = sectionProp && ts.isPropertyAssignment(sectionProp) ? literal(sectionProp.initializer, args) : undefined;
  const defExpr = unwrap(def.initializer);
  let defText = ts.isStringLiteralLike(defExpr) ? (defExpr.text === '' ? '""' : defExpr.text) : defExpr.getText();
  if (ts.isIdentifier(defExpr) && args.has(defText)) defText = /** @type {string} */ (args.get(defText));
  return { section: section || undefined, key: keyText, def: defText, doc, owner };
}

/**
 * Specs declared once in libs count for each app whose settings object names them
 * (`checkTimeoutMs: mergeCheckTimeoutSetting`).
 * @type {Map<string, { init: ts.ObjectLiteralExpression, doc: string }>}
 */
const sharedSpecs = new Map();

/** @param {string} file */
function collectSharedSpecs(file) {
  for (const stmt of parseSource(file).statements) {
    if (!ts.isVariableStatement(stmt)) continue;
    for (const decl of stmt.declarationList.declarations) {
      const init = decl.initializer && unwrap(decl.initializer);
      if (!ts.isIdentifier(decl.name) || !init || !ts.isObjectLiteralExpression(init)) continue;
      if (!decl.type || !/^SettingSpec</.test(decl.type.getText())) continue;
      sharedSpecs.set(decl.name.text, { init, doc: docOf(stmt) });
    }
  }
}

/** @param {string} file @param {string} owner @returns {Setting[]} */
function settingsIn(file, owner) {
  const sf = parseSource(file);
  /** @type {Map<string, ts.ArrowFunction | ts.FunctionDeclaration>} local helpers that build a spec */
  const helpers = new Map();
  sf.forEachChild(function collect(node) {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isArrowFunction(node.initializer)) {
      helpers.set(node.name.text, node.initializer);
    }
    if (ts.isFunctionDeclaration(node) && node.name) helpers.set(node.name.text, node);
    node.forEachChild(collect);
  });
  /** @type {Setting[]} */
  const out = [];
  const visit = (/** @type {ts.Node} */ node) => {
    if (ts.isPropertyAssignment(node)) {
      const init = unwrap(node.initializer);
      const shared = ts.isIdentifier(init) ? sharedSpecs.get(init.text) : undefined;
      if (shared) {
        const s = setting(shared.init, new Map(), shared.doc, owner);
        if (s) out.push(s);
        return;
      }
      if (ts.isObjectLiteralExpression(init)) {
        const s = setting(init, new Map(), docOf(node), owner);
        if (s) {
          out.push(s);
          return;
        }
      }
      if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && helpers.has(init.expression.text)) {
        const fn = /** @type {ts.ArrowFunction | ts.FunctionDeclaration} */ (helpers.get(init.expression.text));
        const args = new Map(fn.parameters.map((p, i) => [p.name.getText(), init.arguments[i] ? unwrap(init.arguments[i]).getText().replace(/^['"`]|['"`]$/g, '') : '']));
        const body = fn.body && ts.isParenthesizedExpression(fn.body) ? unwrap(fn.body) : fn.body;
        if (body && ts.isObjectLiteralExpression(body)) {
          const s = setting(body, args, docOf(node), owner);
          if (s) {
            out.push(s);
            return;
          }
        }
      }
    }
    node.forEachChild(visit);
  };
  visit(sf);
  return out;
}

export function table() {
  /** @type {Setting[]} */
  const all = [];
  for (const file of sourceFiles(path.join(REPO_ROOT, 'libs'))) collectSharedSpecs(file);
  for (const group of ['libs', 'apps']) {
    for (const project of readdirSync(path.join(REPO_ROOT, group)).sort()) {
      const owner = group === 'libs' && project === 'platform' ? 'all apps' : project;
      for (const file of sourceFiles(path.join(REPO_ROOT, group, project, 'src'))) all.push(...settingsIn(file, owner));
    }
  }
  // The same setting read by several apps (e.g. `[security] SECRET_KEY`): one row, every reader listed.
  /** @type {Map<string, Setting & { owners: Set<string> }>} */
  const rows = new Map();
  for (const s of all) {
    const id = envName(s.section, s.key);
    const row = rows.get(id);
    if (row) {
      row.owners.add(s.owner);
      if (!row.doc) row.doc = s.doc;
    } else {
      rows.set(id, { ...s, owners: new Set([s.owner]) });
    }
  }
  const sorted = [...rows.values()].sort(
    (a, b) => Number(Boolean(a.section)) - Number(Boolean(b.section)) || (a.section ?? '').localeCompare(b.section ?? '') || a.key.localeCompare(b.key),
  );
  const lines = [
    '_Generated by `node scripts/settings-table.mjs --write` from the settings specs in `apps/*/src` and `libs/*/src`._',
    '',
    '| Setting (`app.ini`) | Environment variable | Default | Read by | Meaning |',
    '|---|---|---|---|---|',
    ...sorted.map((s) => {
      const name = s.section ? `\`[${s.section}] ${s.key}\`` : s.section === undefined && s.key.includes('_URL') ? '—' : `\`${s.key}\``;
      const def = s.def.length > 48 ? `${s.def.slice(0, 45)}…` : s.def;
      const owners = s.owners.has('all apps') ? 'all apps' : [...s.owners].join(', ');
      const env = envName(s.section, s.key);
      const doc = s.doc || cell(/** @type {Record<string, string>} */ (FALLBACK_DOCS)[env] ?? '');
      return `| ${name} | \`${env}\` | \`${cell(def).replace(/`/g, "'")}\` | ${owners} | ${doc} |`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}

const mode = process.argv[2];
if (mode === '--write' || mode === '--check') {
  const ok = replaceSection(README, 'settings', table(), { check: mode === '--check' });
  if (!ok) {
    process.stderr.write('README.md: the settings table is out of date: run `npm run docs`\n');
    process.exit(1);
  }
} else if (mode) {
  process.stderr.write('usage: node scripts/settings-table.mjs [--write | --check]\n');
  process.exit(2);
} else {
  process.stdout.write(table());
}
