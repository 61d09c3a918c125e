import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { compatibilityReport } from './compat-report.js';

// Decorators applied by hand: the unit project's transform does not parse decorator syntax in spec files.
class SearchQuery {
  q?: string;
}
IsOptional()(SearchQuery.prototype, 'q');
IsString()(SearchQuery.prototype, 'q');

class ThingsController {
  search(_q: SearchQuery) {
    return [];
  }
  poke() {
    return undefined;
  }
  extra() {
    return {};
  }
}
const proto = ThingsController.prototype;
const method = (name: keyof ThingsController) => Object.getOwnPropertyDescriptor(proto, name)!;
Controller('things')(ThingsController);
Get('search')(proto, 'search', method('search'));
Query()(proto, 'search', 0);
Reflect.defineMetadata('design:paramtypes', [SearchQuery], proto, 'search');
Post(':id/poke')(proto, 'poke', method('poke'));
HttpCode(202)(proto, 'poke', method('poke'));
Get(':id/extra')(proto, 'extra', method('extra'));

const dir = mkdtempSync(path.join(tmpdir(), 'cairn-compat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gitea = {
  swagger: '2.0',
  info: { version: '1.25.0' },
  paths: {
    '/things/search': {
      get: { operationId: 'thingSearch', tags: ['thing'], parameters: [{ name: 'q', in: 'query' }, { name: 'topic', in: 'query' }], responses: { '200': {} } },
    },
    '/things/{thing}/poke': { post: { operationId: 'thingPoke', tags: ['thing'], responses: { '204': {} } } },
    '/things/{thing}/other': { get: { operationId: 'thingOther', tags: ['thing'], responses: { '200': {} } } },
  },
  definitions: {},
  responses: {},
};
const file = path.join(dir, 'swagger.v1.json');
writeFileSync(file, JSON.stringify(gitea));

describe('the Gitea compatibility report', () => {
  it('says plainly that it was not run without a Gitea description', () => {
    expect(compatibilityReport([ThingsController], undefined, gitea)).toMatch(/not run/);
  });

  it('lists implemented operations, their differences, what is missing and the additions', () => {
    const report = compatibilityReport([ThingsController], file, gitea);
    expect(report).toContain('implemented: 2 of Gitea\'s 3 operations');
    expect(report).toContain('GET /things/search (thingSearch): refuses (422) topic');
    expect(report).toContain('POST /things/{thing}/poke (thingPoke): answers 202, Gitea 204');
    expect(report).toContain('not implemented: 1 (thing 1)');
    expect(report).toContain('GET /things/{id}/extra');
  });
});
