import { isDeepStrictEqual } from 'node:util';
import { Reflector } from '@nestjs/core';
import { REPO_ACCESS_NEEDS, repoAccessNeed, type RepoAccessNeed } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import { API_CONTROLLERS } from '../routes/controllers.js';
import { declaredRepoAccess } from './repo-access.guard.js';

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

const normalised = (n: RepoAccessNeed) => ({ need: n.need, units: n.units === undefined ? [] : [n.units].flat().sort() });

describe('a route and the operation it sends need the same access', () => {
  it('every route sending a subject of REPO_ACCESS_NEEDS declares exactly its need, and every entry has a route', async () => {
    const reflector = new Reflector();
    const routed = new Set<string>();
    const disagreements: string[] = [];
    for (const controller of API_CONTROLLERS) {
      const proto = controller.prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(proto)) {
        const route = method === 'constructor' ? undefined : declaredRepoAccess(reflector, proto[method] as object);
        if (!route) continue;
        const subject = await firstSubjectSent(controller as new () => unknown, method);
        const declared = subject === null ? undefined : repoAccessNeed(subject);
        if (!subject || !declared) continue;
        routed.add(subject);
        if (!isDeepStrictEqual(normalised(route), normalised(declared))) {
          disagreements.push(`${controller.name}.${method} sends ${subject}: route ${JSON.stringify(route)}, declared ${JSON.stringify(declared)}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect([...routed].sort()).toEqual(Object.keys(REPO_ACCESS_NEEDS).sort());
  });
});
