import { Inject, Injectable } from '@nestjs/common';
import {
  IdentitySubjects, RepoSubjects, placeholderUser, type ActorDto, type PackageDto, type RepositoryDto, type UserDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import { toPackageDto, type VersionView } from './package.mapper.js';

/** One identity call for owners and creators, one repo-service call for the linked repositories the caller may see. */
@Injectable()
export class PackageViews {
  private readonly rootUrl: string;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) settings: CommonSettings,
  ) {
    this.rootUrl = settings.rootUrl;
  }

  async render(versions: VersionView[], viewer: ActorDto | null, knownUsers: UserDto[] = []): Promise<PackageDto[]> {
    if (!versions.length) return [];
    const known = new Map(knownUsers.map((u) => [u.id, u]));
    const wanted = new Set<number>();
    for (const v of versions) for (const id of [v.package.ownerId, v.creatorId]) if (id > 0 && !known.has(id)) wanted.add(id);
    const repoIds = [...new Set(versions.map((v) => v.package.repoId).filter((id): id is number => !!id))];
    const [users, repositories] = await Promise.all([
      wanted.size ? this.rpc.send(IdentitySubjects.userLookup, { ids: [...wanted] }).then((r) => r.users) : Promise.resolve([]),
      repoIds.length ? this.rpc.send(RepoSubjects.repositoryVisible, { actor: viewer, ids: repoIds }) : Promise.resolve([] as RepositoryDto[]),
    ]);
    for (const u of users) known.set(u.id, u);
    const ctx = {
      users: known,
      repositories: new Map(repositories.map((r) => [r.id, r])),
      ghost: () => placeholderUser(-1, 'Ghost', this.rootUrl),
    };
    return versions.map((v) => toPackageDto(v, ctx));
  }

  async renderOne(version: VersionView, viewer: ActorDto | null, knownUsers: UserDto[] = []): Promise<PackageDto> {
    return (await this.render([version], viewer, knownUsers))[0];
  }
}
