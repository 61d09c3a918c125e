import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { API_CONTROLLERS } from '../routes/controllers.js';
import { buildOpenApiDocument, UNIMPLEMENTED } from './openapi-document.js';
import { readCommittedDocument, readGiteaFacts } from './openapi-files.js';
import { matchGiteaPath } from './gitea-paths.js';
import { collectRoutes } from './route-table.js';

const doc = readCommittedDocument();
const facts = readGiteaFacts();
const routes = collectRoutes(API_CONTROLLERS);
const opOf = (method: string, path: string) => {
  const docPath = matchGiteaPath(path, method, doc.paths);
  return docPath ? doc.paths[docPath][method] : undefined;
};

describe('the published API description (apps/gateway/openapi/swagger.v1.json)', () => {
  it('is what the generator builds from the controllers and the committed Gitea facts', () => {
    expect(JSON.parse(JSON.stringify(buildOpenApiDocument(API_CONTROLLERS, facts)))).toEqual(doc);
  });

  it('documents, for every route, exactly the success status its handler answers (Nest metadata)', () => {
    expect(routes.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const route of routes) {
      // Read Nest's own metadata here rather than the route table's reading of it.
      const fn = route.fn as () => unknown;
      const verb = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod;
      const status = (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ?? (verb === RequestMethod.POST ? 201 : 200);
      const documented = Object.keys(opOf(route.method, route.path)?.responses ?? {}).filter((s) => /^2/.test(s));
      const expected = [status, ...route.otherSuccessStatuses].map(String).sort().join('/');
      if (documented.sort().join('/') !== expected) wrong.push(`${route.method} ${route.path}: handler ${status}, documented ${documented.join('/')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('documents the statuses that were wrong before: collaborator check and hook test 204, redeliveries 202', () => {
    const success = (m: string, p: string) => Object.keys(doc.paths[p][m].responses).filter((s) => /^2/.test(s));
    expect(success('get', '/repos/{owner}/{repo}/collaborators/{collaborator}')).toEqual(['204']);
    expect(success('post', '/repos/{owner}/{repo}/hooks/{id}/tests')).toEqual(['204']);
    for (const hook of ['/admin/hooks/{id}', '/orgs/{org}/hooks/{id}', '/repos/{owner}/{repo}/hooks/{id}']) {
      expect(success('post', `${hook}/deliveries/{deliveryId}/attempts`)).toEqual(['202']);
    }
  });

  it("uses Gitea's operation id and tag wherever Gitea has the operation; only Cairn's additions are cairn*", () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const op = opOf(route.method, route.path)!;
      const giteaPath = matchGiteaPath(route.path, route.method, facts.paths);
      const gitea = giteaPath ? facts.paths[giteaPath][route.method] : undefined;
      if (gitea) {
        if (op.operationId !== gitea.operationId || JSON.stringify(op.tags) !== JSON.stringify(gitea.tags)) {
          wrong.push(`${route.method} ${route.path}: ${op.operationId}, Gitea ${String(gitea.operationId)}`);
        }
      } else if (!op.operationId.startsWith('cairn') || op['x-cairn-extension'] !== true) {
        wrong.push(`${route.method} ${route.path}: a Cairn addition must be cairn* and x-cairn-extension`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('gives every operation answering a body a response schema', () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, res] of Object.entries(op.responses as Record<string, Record<string, unknown>>)) {
          if (/^2/.test(status) && status !== '204' && !res.schema && !res.$ref) missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('marks the Gitea query parameters a handler does not read (the gateway refuses them with 422)', () => {
    const refusedOf = (path: string, method: 'get' | 'delete' = 'get') =>
      doc.paths[path][method].parameters!.filter((p) => p[UNIMPLEMENTED]).map((p) => p.name);
    // Every search filter is read (starredBy, topic, archived, q, …), and so is `poster` of pull-request lists.
    expect(refusedOf('/repos/search')).toEqual([]);
    expect(refusedOf('/repos/{owner}/{repo}/pulls')).toEqual([]);
    // Deleting a user with everything they own (`purge`) is not served: a user who owns repositories is refused.
    expect(refusedOf('/admin/users/{username}', 'delete')).toEqual(['purge']);
  });

  // schemathesis (test/e2e/client-schemathesis.e2e-spec.ts) found real answers the description forbade.
  it('lets answers carry null where Go encodes a nil pointer or slice, but not request bodies', () => {
    const defs = doc.definitions as Record<string, { properties: Record<string, Record<string, unknown>> }>;
    expect(defs.Repository.properties.parent['x-nullable']).toBe(true);
    expect(defs.Issue.properties.milestone['x-nullable']).toBe(true);
    expect(defs.Issue.properties.assignees['x-nullable']).toBe(true);
    expect(defs.Team.properties.organization['x-nullable']).toBe(true);
    expect(defs.PayloadCommitVerification.properties.signer['x-nullable']).toBe(true);
    expect(defs.PullRequestMeta.properties.merged_at['x-nullable']).toBe(true);
    expect(defs.CreateIssueOption.properties.assignees['x-nullable']).toBeUndefined();
    expect(defs.CreatePullRequestOption.properties.labels['x-nullable']).toBeUndefined();
    // An organization as owner has no email (""); a commit with no statuses has the combined state "".
    expect(defs.User.properties.email.format).toBeUndefined();
    expect(defs.CombinedStatus.properties.state.enum).toContain('');
    // Files that do not exist answer null in their place; a taken repository name is 409 under an organization too.
    const files = (doc.paths as Record<string, any>)['/repos/{owner}/{repo}/file-contents'].post.responses['200'];
    expect(files.schema.items['x-nullable']).toBe(true);
    expect(Object.keys((doc.paths as Record<string, any>)['/orgs/{org}/repos'].post.responses)).toContain('409');
  });

  it("declares the gateway's refusals on every operation they can reach, and JSON error bodies", () => {
    const missing: string[] = [];
    for (const [p, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [m, op] of Object.entries(methods)) {
        const params = (op.parameters ?? []) as { in: string }[];
        const has = (where: string) => params.some((x) => x.in === where);
        const want = ['401'];
        if (has('path')) want.push('404', '400');
        if (has('body')) want.push('400', '415', '422');
        if (has('formData')) want.push('415');
        if (has('query')) want.push('422');
        for (const status of want) if (!op.responses[status]) missing.push(`${m} ${p} ${status}`);
        const produces = (op.produces ?? doc.produces) as string[];
        if (!produces.includes('application/json') && !produces.includes('*/*')) missing.push(`${m} ${p} produces JSON`);
      }
    }
    expect(missing).toEqual([]);
    // Request bodies are JSON only (text/plain bodies are refused with 415).
    expect(doc.consumes).toEqual(['application/json']);
  });

  it('records where the Gitea facts come from', () => {
    expect(facts.source).toMatchObject({ api: 'Gitea 1.25', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});
