import { RequestMethod, type Type } from '@nestjs/common';
/** Nest's metadata key for route-handler arguments (`ROUTE_ARGS_METADATA`). */
const ROUTE_ARGS_METADATA = '__routeArguments__';

/** One API route as the code declares it. */
export interface ApiRoute {
  /** Lower-case HTTP method. */
  method: string;
  /** OpenAPI path template relative to `/api/v1`, e.g. `/repos/{owner}/{repo}/hooks/{id}`. */
  path: string;
  controller: string;
  handler: string;
  /** Names of the path parameters in order. */
  pathParams: string[];
  /** The class of the `@Body()` parameter, if any. */
  bodyType?: Type<unknown>;
  /** The class of the `@Query()` parameter, if any. */
  queryType?: Type<unknown>;
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

/** Turns Nest's `:name`, `*name` and `*` segments into OpenAPI `{name}` templates. */
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
      for (const [key, arg] of Object.entries(args)) {
        const kind = Number(key.split(':')[0]);
        if (kind === BODY && !arg.data) bodyType = paramTypes[arg.index];
        if (kind === QUERY && !arg.data) queryType = paramTypes[arg.index];
      }
      for (const b of bases) {
        for (const s of Array.isArray(sub) ? sub : [sub]) {
          const { path, params } = toOpenApiPath(b, s);
          routes.push({ method, path, controller: controller.name, handler: name, pathParams: params, bodyType, queryType });
        }
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
