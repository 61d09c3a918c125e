import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, IdentitySubjects, RepoUrls, toPaging,
  type CreateDeployKeyRequest, type DeployKeyDto, type DeployKeyIdRequest, type ListDeployKeysRequest, type Paginated,
  type RepoScopedRequest,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, uniqueViolation, type CommonSettings } from '@cairn/platform';
import { RepositoriesService } from '../repositories/repositories.service.js';
import { toDeployKeyDto } from './deploy-key.mapper.js';
import { DeployKeysRepository, type DeployKeyRow } from './deploy-keys.repository.js';


/** Key content rules and "never also a user's key" are identity-service's (`identity.key.check-deploy`). */
@Injectable()
export class DeployKeysService {
  constructor(
    private readonly keys: DeployKeysRepository,
    private readonly repositories: RepositoriesService,
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  async list(req: ListDeployKeysRequest): Promise<Paginated<DeployKeyDto>> {
    const paging = toPaging(req.query);
    const { rows, total } = await this.keys.list(
      req.repo.id,
      { id: req.query.key_id || undefined, fingerprint: req.query.fingerprint || undefined },
      paging.skip,
      paging.take,
    );
    return { items: await this.render(req, rows), total };
  }

  async create(req: CreateDeployKeyRequest): Promise<DeployKeyDto> {
    const { content, fingerprint } = await this.rpc.send(IdentitySubjects.keyCheckDeploy, { key: req.body.key });
    const name = req.body.title.trim();
    if (!name) throw DomainError.unprocessable('title is required');
    try {
      const row = await this.keys.create({
        repoId: req.repo.id,
        name,
        content,
        fingerprint,
        readOnly: req.body.read_only ?? false,
      });
      return (await this.render(req, [row]))[0]; // Gitea's answer shows read_only to the key's creator
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint?.includes('fingerprint')) throw DomainError.unprocessable('This key has already been added to this repository');
      if (constraint?.includes('name')) throw DomainError.unprocessable('A key with the same name already exists');
      throw err;
    }
  }

  async get(req: DeployKeyIdRequest): Promise<DeployKeyDto> {
    const row = await this.keys.findInRepo(req.repo.id, req.id);
    if (!row) throw DomainError.notFound(`deploy key ${req.id} does not exist`);
    return (await this.render(req, [row]))[0];
  }

  /** Gitea answers 204 for a key that is not there (or not this repository's): nothing is deleted then. */
  async delete(req: DeployKeyIdRequest): Promise<void> {
    await this.keys.delete(req.repo.id, req.id);
  }

  fingerprintUsed(fingerprint: string): Promise<boolean> {
    return this.keys.fingerprintUsed(fingerprint);
  }

  /** Gitea shows `read_only` and the repository to a site admin or the repository's owner only. */
  private async render(req: RepoScopedRequest, rows: DeployKeyRow[]): Promise<DeployKeyDto[]> {
    const url = this.keysUrl(req);
    const dtos = rows.map((r) => toDeployKeyDto(r, url));
    const privileged = req.actor && (req.actor.isAdmin || req.actor.id === req.repo.ownerId);
    if (!privileged || rows.length === 0) return dtos;
    const [readOnly, readWrite] = await Promise.all(
      (['read', 'write'] as const).map((access) => this.repositories.get({ ...req, access })),
    );
    return dtos.map((dto, i) => ({ ...dto, read_only: rows[i].readOnly, repository: rows[i].readOnly ? readOnly : readWrite }));
  }

  private keysUrl(req: RepoScopedRequest): string {
    return `${new RepoUrls(this.common.rootUrl, req.repo).api}/keys/`;
  }
}
