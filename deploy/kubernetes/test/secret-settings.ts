// The settings whose values must live in Secrets: those the apps' setting specs mark `secret: true`, and the
// credentials every app reads (database and Redis URLs carry passwords; NATS passwords, tokens and key files).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './render.js';

const CREDENTIALS = ['DATABASE_URL', 'REDIS_URL', 'CAIRN__NATS__PASSWORD', 'CAIRN__NATS__TOKEN', 'CAIRN__STORAGE__MINIO_SECRET_ACCESS_KEY'];

function envName(section: string | undefined, key: string): string {
  return section ? `CAIRN__${section.replace(/[.-]/g, '_').toUpperCase()}__${key.toUpperCase()}` : key;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (name.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(name)) out.push(full);
  }
  return out;
}

function stringProp(obj: ts.ObjectLiteralExpression, name: string): string | undefined {
  for (const p of obj.properties) {
    if (ts.isPropertyAssignment(p) && p.name.getText() === name && ts.isStringLiteralLike(p.initializer)) return p.initializer.text;
  }
  return undefined;
}

function isSecret(obj: ts.ObjectLiteralExpression): boolean {
  return obj.properties.some((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'secret' && p.initializer.kind === ts.SyntaxKind.TrueKeyword);
}

/** Environment names of every setting marked `secret: true` in apps/*\/src and libs/*\/src, plus the credentials. */
export function secretSettingNames(): string[] {
  const names = new Set(CREDENTIALS);
  for (const root of ['apps', 'libs']) {
    for (const pkg of readdirSync(path.join(REPO_ROOT, root))) {
      const src = path.join(REPO_ROOT, root, pkg, 'src');
      let files: string[];
      try {
        files = sourceFiles(src);
      } catch {
        continue;
      }
      for (const file of files) {
        const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
        const visit = (node: ts.Node): void => {
          if (ts.isObjectLiteralExpression(node) && isSecret(node)) {
            const key = stringProp(node, 'key');
            if (key) names.add(envName(stringProp(node, 'section'), key));
          }
          ts.forEachChild(node, visit);
        };
        visit(sf);
      }
    }
  }
  return [...names].sort();
}
