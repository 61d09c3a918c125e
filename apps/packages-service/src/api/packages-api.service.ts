import { Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, PACKAGE_TYPES, RepoSubjects, accessAtLeast, toPaging, type ActorDto, type LatestPackageVersionRequest,
  type LinkPackageRequest, type ListPackagesRequest, type ListPackageVersionsRequest, type PackageDto, type PackageFileDto,
  type PackageRequest, type PackageVersionRequest, type Paginated,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { PackageAccess, type OwnerAccess } from '../access/package-access.js';
import { PackageStore } from '../store/package-store.js';
import { toPackageFileDto, type VersionView } from './package.mapper.js';
import { PackageViews } from './package-views.js';
import { PackagesApiRepository } from './packages-api.repository.js';
import { sortBySemver } from './version-order.js';

const isKnownType = (type: string) => (PACKAGE_TYPES as readonly string[]).includes(type);

/** Gitea's `routers/api/v1/packages`: owner and access resolved once per call (`determineAccessMode`). */
@Injectable()
export class PackagesApiService {
  constructor(
    private readonly access: PackageAccess,
    private readonly rows: PackagesApiRepository,
    private readonly views: PackageViews,
    private readonly store: PackageStore,
    private readonly rpc: RpcClient,
  ) {}

  async list(req: ListPackagesRequest): Promise<Paginated<PackageDto>> {
    const { owner } = await this.allowed(req.actor, req.owner, 'read');
    const q = req.query ?? {};
    const page = await this.rows.ownerVersions(owner.id, { type: q.type?.trim(), q: q.q?.trim() }, toPaging(q));
    return { items: await this.views.render(page.items, req.actor, [owner.user]), total: page.total };
  }

  async versions(req: ListPackageVersionsRequest): Promise<Paginated<PackageDto>> {
    const { owner } = await this.allowed(req.actor, req.owner, 'read');
    const pkg = isKnownType(req.type) ? await this.rows.findPackage(owner.id, req.type, req.name) : null;
    if (!pkg) return { items: [], total: 0 }; // unknown type or name: an empty list, as Gitea
    const paging = toPaging(req.query);
    if (req.query?.sort !== 'semver') {
      const page = await this.rows.packageVersions(pkg.id, paging);
      return { items: await this.views.render(page.items, req.actor, [owner.user]), total: page.total };
    }
    const ordered = sortBySemver(await this.rows.orderableVersions(pkg.id));
    const pageIds = ordered.slice(paging.skip, paging.skip + paging.take).map((v) => v.id);
    const byId = new Map((await this.rows.versionsById(pageIds)).map((v) => [v.id, v]));
    const items = pageIds.map((id) => byId.get(id)).filter((v): v is VersionView => v !== undefined);
    return { items: await this.views.render(items, req.actor, [owner.user]), total: ordered.length };
  }

  async latest(req: LatestPackageVersionRequest): Promise<PackageDto> {
    const { owner } = await this.allowed(req.actor, req.owner, 'read');
    const pkg = await this.packageOf(owner.id, req);
    let version: VersionView | null;
    if (req.semver) {
      const [first] = sortBySemver(await this.rows.orderableVersions(pkg.id));
      version = first ? ((await this.rows.versionsById([first.id]))[0] ?? null) : null;
    } else {
      version = await this.rows.latestVersion(pkg.id);
    }
    if (!version) throw DomainError.notFound('package does not exist');
    return this.views.renderOne(version, req.actor, [owner.user]);
  }

  async get(req: PackageVersionRequest): Promise<PackageDto> {
    const { owner } = await this.allowed(req.actor, req.owner, 'read');
    return this.views.renderOne(await this.versionOf(owner.id, req), req.actor, [owner.user]);
  }

  async files(req: PackageVersionRequest): Promise<PackageFileDto[]> {
    const { owner } = await this.allowed(req.actor, req.owner, 'read');
    const version = await this.versionOf(owner.id, req);
    return (await this.rows.files(version.id)).map(toPackageFileDto);
  }

  /** Deletes the version (its files' blobs may become unreferenced) and records the `package` event `deleted`. */
  async delete(req: PackageVersionRequest): Promise<Record<string, never>> {
    const { owner } = await this.allowed(req.actor, req.owner, 'write');
    const version = await this.versionOf(owner.id, req);
    await this.store.transaction(async (tx) => {
      const row = await this.store.findVersionById(version.id, tx);
      if (!row) throw DomainError.notFound('package does not exist');
      await this.store.deleteVersion(tx, row, req.actor?.id ?? null);
    });
    return {};
  }

  /** Gitea's `LinkToRepository`: the repository must be visible (else 404) and writable; unlink first to relink. */
  async link(req: LinkPackageRequest): Promise<Record<string, never>> {
    const { owner } = await this.allowed(req.actor, req.owner, 'write');
    const pkg = await this.packageOf(owner.id, req);
    const { repo, access } = await this.rpc.send(RepoSubjects.accessResolve, { actor: req.actor, owner: owner.login, repo: req.repo });
    if (repo.ownerId !== owner.id) throw DomainError.notFound('repository not found');
    if (pkg.repoId) throw new DomainError(ErrorCode.INVALID_ARGUMENT, 'the package is already linked to a repository');
    if (!accessAtLeast(access, 'write')) throw DomainError.forbidden('no permission to write to the repository');
    if (!(await this.rows.setRepository(pkg.id, repo.id))) {
      throw new DomainError(ErrorCode.INVALID_ARGUMENT, 'the package is already linked to a repository');
    }
    return {};
  }

  /** Gitea's `UnlinkFromRepository`: write on the linked repository and manage rights on the package. */
  async unlink(req: PackageRequest): Promise<Record<string, never>> {
    const { owner, access } = await this.allowed(req.actor, req.owner, 'write');
    const pkg = await this.packageOf(owner.id, req);
    if (!pkg.repoId) throw new DomainError(ErrorCode.INVALID_ARGUMENT, 'the package is not linked to a repository');
    const [repo] = await this.rpc.send(RepoSubjects.repositoryVisible, { actor: req.actor, ids: [pkg.repoId] });
    if (!repo?.permissions.push) throw DomainError.forbidden('no permission to write to the linked repository');
    if (!accessAtLeast(access, 'admin')) {
      throw DomainError.forbidden(`no permission to unlink package '${pkg.name}' from its repository`);
    }
    await this.rows.setRepository(pkg.id, null);
    return {};
  }

  private async allowed(actor: ActorDto | null, ownerName: string, need: 'read' | 'write'): Promise<OwnerAccess> {
    const resolved = await this.access.resolve(actor, ownerName);
    const refusal = this.access.refusal(actor, resolved, need);
    if (refusal?.kind === 'unauthenticated') throw new DomainError(ErrorCode.UNAUTHENTICATED, refusal.message);
    if (refusal) throw DomainError.forbidden(refusal.message);
    return resolved;
  }

  private async packageOf(ownerId: number, req: { type: string; name: string }) {
    const pkg = isKnownType(req.type) ? await this.rows.findPackage(ownerId, req.type, req.name) : null;
    if (!pkg) throw DomainError.notFound('package does not exist');
    return pkg;
  }

  private async versionOf(ownerId: number, req: PackageVersionRequest): Promise<VersionView> {
    const pkg = await this.packageOf(ownerId, req);
    const version = await this.rows.findVersion(pkg.id, req.version);
    if (!version) throw DomainError.notFound('package does not exist');
    return version;
  }
}
