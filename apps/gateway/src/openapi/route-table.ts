import { RequestMethod, type Type } from '@nestjs/common';
import { ALSO_ANSWERS } from '../http/also-answers.js';
import { PAGED } from '../http/paged.js';
/** Nest's metadata keys for route-handler arguments and `@HttpCode()` (`ROUTE_ARGS_METADATA`, `HTTP_CODE_METADATA`). */
const ROUTE_ARGS_METADATA = '__routeArguments__';
const HTTP_CODE_METADATA = '__httpCode__';

export interface ApiRoute {
  method: string;
  /** OpenAPI path template relative to `/api/v1`, e.g. `/repos/{owner}/{repo}/hooks/{id}`. */
  path: string;
  controller: string;
  handler: string;
  pathParams: string[];
  bodyType?: Type<unknown>;
  queryType?: Type<unknown>;
  /** Query values the handler reads by name (`@Query('name')`, and `page`/`limit` of `@Paged()` routes). */
  namedQuery: string[];
  /** The status a successful call answers: `@HttpCode()`, else Nest's default (201 for POST, 200 otherwise). */
  successStatus: number;
  /** Other success statuses the handler sets itself depending on the outcome (`@AlsoAnswers()`). */
  otherSuccessStatuses: number[];
  fn: object;
}

const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.DELETE]: 'delete',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.HEAD]: 'head',
};

/** Nest's route-param type ids for `@Body()` and `@Query()` (RouteParamtypes.BODY / QUERY). */
const BODY = 3;
const QUERY = 4;

export function toOpenApiPath(...parts: string[]): { path: string; params: string[] } {
  const joined = parts
    .filter((p) => p && p !== '/')
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  const params: string[] = [];
  const path = `/${joined}`
    .split('/')
    .map((seg) => {
      const named = /^[:*](\w+)$/.exec(seg);
      if (named) {
        params.push(named[1]);
        return `{${named[1]}}`;
      }
      if (seg === '*') {
        params.push('filepath');
        return '{filepath}';
      }
      return seg;
    })
    .join('/');
  return { path: path === '/' ? '/' : path.replace(/\/$/, ''), params };
}

/** Reads every route of the given controllers from Nest's decorator metadata — the code is the source of truth. */
export function collectRoutes(controllers: Type<unknown>[]): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const controller of controllers) {
    const base = (Reflect.getMetadata('path', controller) as string | string[] | undefined) ?? '';
    const bases = Array.isArray(base) ? base : [base];
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const fn = proto[name];
      if (typeof fn !== 'function') continue;
      const methodId = Reflect.getMetadata('method', fn) as RequestMethod | undefined;
      const sub = Reflect.getMetadata('path', fn) as string | string[] | undefined;
      if (methodId === undefined || sub === undefined) continue;
      const method = METHODS[methodId];
      if (!method) continue;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
        string,
        { index: number; data?: unknown }
      >;
      const paramTypes = (Reflect.getMetadata('design:paramtypes', proto, name) ?? []) as Type<unknown>[];
      let bodyType: Type<unknown> | undefined;
      let queryType: Type<unknown> | undefined;
      const namedQuery: string[] = [];
      for (const [key, arg] of Object.entries(args)) {
        const kind = Number(key.split(':')[0]);
        if (kind === BODY && !arg.data) bodyType = paramTypes[arg.index];
        if (kind === QUERY && !arg.data) queryType = paramTypes[arg.index];
        if (kind === QUERY && typeof arg.data === 'string') namedQuery.push(arg.data);
      }
      if (Reflect.getMetadata(PAGED, fn)) namedQuery.push('page', 'limit');
      const code = Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined;
      const successStatus = code ?? (method === 'post' ? 201 : 200);
      const otherSuccessStatuses = (Reflect.getMetadata(ALSO_ANSWERS, fn) as number[] | undefined) ?? [];
      for (const b of bases) {
        for (const s of Array.isArray(sub) ? sub : [sub]) {
          const { path, params } = toOpenApiPath(b, s);
          routes.push({
            method, path, controller: controller.name, handler: name, pathParams: params, bodyType, queryType,
            namedQuery, successStatus, otherSuccessStatuses, fn,
          });
        }
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
