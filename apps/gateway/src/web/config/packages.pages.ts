import { DomainError, IdentitySubjects, PackageApiSubjects, type ActorDto } from '@cairn/contracts';
import { page, redirect, requireSignIn, type PageContext, type WebKit } from '../core/web-kit.js';
import { pager, pageOf } from '../core/paging.js';

const PAGE_SIZE = 30;

interface OwnerParams { owner: string }
interface PackageParams extends OwnerParams { type: string; name: string }
interface VersionParams extends PackageParams { version: string }

/** How to install a version, for the types whose client Cairn serves; null for the others. */
export function installHint(rootUrl: string, owner: string, type: string, name: string, version: string, files: string[]): string | null {
  const root = rootUrl.replace(/\/$/, '');
  const api = `${root}/api/packages/${encodeURIComponent(owner)}`;
  switch (type) {
    case 'npm':
      return `npm install --registry=${api}/npm/ ${name}@${version}`;
    case 'container':
      return `docker pull ${new URL(root).host}/${owner.toLowerCase()}/${name}:${version}`;
    case 'generic':
      return files.map((f) => `curl -OJ ${api}/generic/${encodeURIComponent(name)}/${encodeURIComponent(version)}/${encodeURIComponent(f)}`).join('\n')
        || `curl -OJ ${api}/generic/${encodeURIComponent(name)}/${encodeURIComponent(version)}/<file>`;
    default:
      return null;
  }
}

/** packages-service applies the access rule on every call; the pages only hide the delete button it would refuse. */
export function registerPackagePages(web: WebKit): void {
  const rpc = web.rpc;
  const base = (owner: string) => `/${encodeURIComponent(owner)}/-/packages`;

  const mayDelete = async (actor: ActorDto | null, owner: string): Promise<boolean> => {
    if (!actor) return false;
    if (actor.isAdmin || actor.login.toLowerCase() === owner.toLowerCase()) return true;
    const permissions = await rpc.send(IdentitySubjects.orgUserPermissions, { actor, org: owner, username: actor.login }).catch(() => null);
    return permissions?.can_write ?? false;
  };

  web.get<OwnerParams>('/:owner/-/packages', async (ctx) => {
    const owner = ctx.params.owner;
    const type = (ctx.query.type ?? '').trim().slice(0, 32);
    const q = (ctx.query.q ?? '').trim().slice(0, 255);
    const current = pageOf(ctx.query);
    const list = await rpc.send(PackageApiSubjects.packageList, {
      actor: ctx.actor, owner, query: { page: current, limit: PAGE_SIZE, ...(type ? { type } : {}), ...(q ? { q } : {}) },
    });
    const extra = `${type ? `&type=${encodeURIComponent(type)}` : ''}${q ? `&q=${encodeURIComponent(q)}` : ''}`;
    return page('config/packages', `Packages · ${owner}`, {
      owner, type, q, packages: list.items, total: list.total, pager: pager(current, list.total, PAGE_SIZE), extra,
      types: ['generic', 'npm', 'container'],
    });
  });

  web.get<PackageParams>('/:owner/-/packages/:type/:name', async (ctx) => {
    const { owner, type, name } = ctx.params;
    const current = pageOf(ctx.query);
    const list = await rpc.send(PackageApiSubjects.versionList, { actor: ctx.actor, owner, type, name, query: { page: current, limit: PAGE_SIZE } });
    if (list.total === 0) throw DomainError.notFound('package not found');
    return page('config/package', `${name} · Packages · ${owner}`, {
      owner, type, name, versions: list.items, pager: pager(current, list.total, PAGE_SIZE), packagesUrl: base(owner),
    });
  });

  web.get<VersionParams>('/:owner/-/packages/:type/:name/:version', async (ctx) => {
    const { owner, type, name, version } = ctx.params;
    const [pkg, files] = await Promise.all([
      rpc.send(PackageApiSubjects.versionGet, { actor: ctx.actor, owner, type, name, version }),
      rpc.send(PackageApiSubjects.fileList, { actor: ctx.actor, owner, type, name, version }),
    ]);
    return page('config/package-version', `${name} ${version} · Packages · ${owner}`, {
      owner, pkg, files, packagesUrl: base(owner),
      packageUrl: `${base(owner)}/${encodeURIComponent(type)}/${encodeURIComponent(name)}`,
      install: installHint(web.deps.common.rootUrl, pkg.owner.login, pkg.type, pkg.name, pkg.version, files.map((f) => f.name)),
      canDelete: await mayDelete(ctx.actor, owner),
    });
  });

  web.post<VersionParams>('/:owner/-/packages/:type/:name/:version/delete', async (ctx: PageContext<VersionParams>) => {
    const actor = requireSignIn(ctx);
    const { owner, type, name, version } = ctx.params;
    await rpc.send(PackageApiSubjects.versionDelete, { actor, owner, type, name, version });
    await ctx.flash('success', `Version ${version} of ${name} has been deleted.`);
    return redirect(base(owner));
  });
}
