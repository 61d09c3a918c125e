import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { REPO_ACCESS_NEEDS, repoAccessNeed } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import { API_CONTROLLERS } from '../routes/controllers.js';
import { declaredRepoAccess, type DeclaredRepoAccess } from './repo-access.guard.js';

/**
 * Routes naming a repository (`:owner/:repo`) that carry no `@RepoAccess`, each with the reason (`Controller.method`:
 * why). None today: creating a repository names no repository yet, and forks and transfers are judged on the source
 * repository by the table (where they may go is repo-service's rule). Every other such route declares its operation.
 */
const NOT_REPO_OPERATIONS: Record<string, string> = {};

/** Thrown by the recording bus: the route got as far as sending, which is all this test needs to know. */
class Sent {
  constructor(readonly subject: string) {}
}

/** The first subject a route sends, found by calling it on a bare instance whose bus records and stops. */
async function firstSubjectSent(controller: new (...args: never[]) => unknown, method: string): Promise<string | null> {
  const instance = Object.create(controller.prototype as object) as Record<string, unknown>;
  instance.rpc = { send: (subject: string) => { throw new Sent(subject); } };
  const anything = { actor: null, repo: { id: 1 }, access: 'owner', query: {}, body: {} };
  try {
    await (instance[method] as (...args: unknown[]) => unknown)(...Array(6).fill(anything));
  } catch (err) {
    if (err instanceof Sent) return err.subject;
  }
  return null;
}

interface Route {
  name: string;
  paths: string[];
  declared: DeclaredRepoAccess | undefined;
  controller: new (...args: never[]) => unknown;
  method: string;
}

/** Every API route with its full paths and the access it declares (on the method, else on its controller). */
function apiRoutes(): Route[] {
  const reflector = new Reflector();
  const routes: Route[] = [];
  for (const controller of API_CONTROLLERS) {
    const proto = controller.prototype as Record<string, unknown>;
    const bases = [reflector.get<string | string[] | undefined>(PATH_METADATA, controller) ?? ''].flat();
    for (const method of Object.getOwnPropertyNames(proto)) {
      if (method === 'constructor' || typeof proto[method] !== 'function') continue;
      const own = reflector.get<string | string[] | undefined>(PATH_METADATA, proto[method] as () => unknown);
      if (own === undefined) continue; // a helper, not a route
      const paths = bases.flatMap((b) => [own].flat().map((p) => `${b}/${p}`));
      const declared = declaredRepoAccess(reflector, proto[method] as object) ?? declaredRepoAccess(reflector, controller);
      routes.push({ name: `${controller.name}.${method}`, paths, declared, controller: controller as Route['controller'], method });
    }
  }
  return routes;
}

const namesRepository = (path: string) => /(^|\/):owner\/:repo(\/|$)/.test(path.replace(/\/+/g, '/'));

/** Lines of the gateway's route sources comparing an access level by hand. */
function handLevelChecks(): string[] {
  const src = join(dirname(fileURLToPath(import.meta.url)), '..');
  const found: string[] = [];
  for (const entry of readdirSync(join(src, 'routes'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.spec.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/\b(accessAtLeast|assertRepoAccess|unitAccessLevel)\(|\.access\s*[!=]==/.test(line)) {
        found.push(`${relative(src, file)}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  return found;
}

describe('a repository route\'s level lives in REPO_ACCESS_NEEDS alone', () => {
  // `@RepoAccess` takes only an operation (its need is the table's entry), so declaring the operation is the check.
  it('every route naming a repository declares its operation', () => {
    const undeclared: string[] = [];
    const checked: string[] = [];
    for (const route of apiRoutes()) {
      if (!route.paths.some(namesRepository)) continue;
      checked.push(route.name);
      if (!route.declared && !Object.hasOwn(NOT_REPO_OPERATIONS, route.name)) {
        undeclared.push(`${route.name} (${route.paths.join(', ')})`);
      }
    }
    expect(undeclared).toEqual([]);
    // The paths were read: routes at `/repos/{owner}/{repo}` and at `/user/starred/{owner}/{repo}` are among them.
    expect(checked).toEqual(expect.arrayContaining(['IssuesController.list', 'OwnFollowsController.star', 'RepoHooksController.list']));
  });

  it('every exception is still a route naming a repository without @RepoAccess', () => {
    const routes = new Map(apiRoutes().map((r) => [r.name, r]));
    const stale = Object.keys(NOT_REPO_OPERATIONS).filter((name) => {
      const route = routes.get(name);
      return !route || route.declared !== undefined || !route.paths.some(namesRepository);
    });
    expect(stale).toEqual([]);
  });

  it('no gateway route compares an access level by hand', () => {
    expect(handLevelChecks()).toEqual([]);
  });

  it('a route sending a subject of the table declares that subject, and every entry has a route', async () => {
    const declaredByRoutes = new Set<string>();
    const disagreements: string[] = [];
    for (const route of apiRoutes()) {
      if (!route.declared) continue;
      declaredByRoutes.add(route.declared.operation);
      const subject = await firstSubjectSent(route.controller, route.method);
      if (subject !== null && repoAccessNeed(subject) && subject !== route.declared.operation) {
        disagreements.push(`${route.name} sends ${subject} but declares ${route.declared.operation}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect([...declaredByRoutes].sort()).toEqual(Object.keys(REPO_ACCESS_NEEDS).sort());
  });
});
