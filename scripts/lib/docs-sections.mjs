import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** @param {string} file */
export function parseSource(file) {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Except tests, declarations and generated code. @param {string} dir @returns {string[]} */
export function sourceFiles(dir) {
  /** @type {string[]} */
  const out = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!['generated', 'node_modules', 'dist'].includes(e.name)) out.push(...sourceFiles(p));
    } else if (/\.ts$/.test(e.name) && !/\.(spec|int-spec|e2e-spec|d)\.ts$/.test(e.name)) {
      out.push(p);
    }
  }
  return out.sort();
}

/** The first sentence-ish line of a node's JSDoc, flattened to one line (Markdown-table safe). @param {ts.Node} node */
export function docOf(node) {
  const docs = /** @type {any} */ (node).jsDoc;
  if (!docs?.length) return '';
  const c = docs[docs.length - 1].comment;
  // `{@link X}` parts carry the target in `name` and an optional label in `text`.
  const part = (/** @type {any} */ p) =>
    p.kind === ts.SyntaxKind.JSDocText ? p.text : (p.text || '').trim() || `\`${p.name?.getText() ?? ''}\``;
  const text = typeof c === 'string' ? c : Array.isArray(c) ? c.map(part).join('') : '';
  return cell(text);
}

/** @param {string} text */
export function cell(text) {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

/** Strips `as const` / `satisfies X` / parentheses. @param {ts.Expression} e @returns {ts.Expression} */
export function unwrap(e) {
  while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
}

/** @param {ts.ObjectLiteralExpression} obj @param {string} name */
export function prop(obj, name) {
  return obj.properties.find(
    (p) => ts.isPropertyAssignment(p) && p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name,
  );
}

/**
 * With `check`, only compares.
 * @param {string} file @param {string} name marker name @param {string} content
 * @param {{ check?: boolean }} [options] @returns {boolean} true when the file is (now) up to date
 */
export function replaceSection(file, name, content, { check = false } = {}) {
  const text = readFileSync(file, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${file}: markers ${start} … ${end} not found`);
  const next = `${text.slice(0, i + start.length)}\n${content.trimEnd()}\n${text.slice(j)}`;
  if (next === text) return true;
  if (check) return false;
  writeFileSync(file, next);
  return true;
}

export { ts };
