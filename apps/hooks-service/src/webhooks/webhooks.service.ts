import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError, ErrorCode, IdentitySubjects, RepoSubjects, ZERO_SHA, repoUrls, toPaging, type ActorDto,
  type CreateHookBody,
  type EditHookBody, type HookDeliveryDto, type HookDto, type HookScopeDto, type ListHooksQuery, type Paginated,
  type PushedCommit, type RepoRefDto, type RepositoryInitReply, type UserDto, type AccessLevel,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { Prisma } from '../generated/prisma/client.js';
import { SecretBox } from '@cairn/platform';
import { pushPayload } from '../payloads/gitea-payloads.js';
import { HookScopeResolver } from './hook-scope.js';
import { checkCreateHook, checkEditHook } from './hook-options.js';
import { hookMeta, openOrEmpty, toHookDto } from './webhook.mapper.js';
import { isMaskOf, maskCredential, maskUrlCredentials } from '../common/header-mask.js';
import { TEST_DELIVERY, type TestDelivery } from './test-delivery.js';
import { WebhooksRepository } from './webhooks.repository.js';

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger('WebhooksService');

  constructor(
    private readonly hooks: WebhooksRepository,
    private readonly scopes: HookScopeResolver,
    private readonly box: SecretBox,
    @Inject(TEST_DELIVERY) private readonly testDelivery: TestDelivery,
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) private readonly settings: CommonSettings,
  ) {}

  async list(actor: ActorDto | null, scope: HookScopeDto, query: ListHooksQuery = {}): Promise<Paginated<HookDto>> {
    const owner = await this.scopes.resolve(actor, scope);
    const paging = toPaging(query);
    let filter: { isSystemWebhook?: boolean } = {};
    if (owner.level === 'admin') {
      const type = query.type ?? 'system';
      filter = type === 'all' ? {} : { isSystemWebhook: type === 'system' };
    }
    const { items, total } = await this.hooks.list(owner, filter, paging.skip, paging.take);
    return { items: items.map((h) => toHookDto(h, this.box)), total };
  }

  async get(actor: ActorDto | null, scope: HookScopeDto, hookId: number): Promise<HookDto> {
    const owner = await this.scopes.resolve(actor, scope);
    const hook = await this.hooks.find(owner, hookId);
    if (!hook) throw DomainError.notFound('hook does not exist');
    return toHookDto(hook, this.box);
  }

  async create(actor: ActorDto | null, scope: HookScopeDto, body: CreateHookBody): Promise<HookDto> {
    const owner = await this.scopes.resolve(actor, scope);
    const f = checkCreateHook(body, owner.level === 'admin');
    const row = await this.hooks.create({
      repoId: owner.repoId,
      ownerId: owner.ownerId,
      isSystemWebhook: f.isSystemWebhook,
      type: f.type,
      url: f.url,
      contentType: f.contentType,
      secretSealed: this.box.sealOptional(f.secret),
      authorizationSealed: this.box.sealOptional(f.authorizationHeader),
      events: f.events,
      sendEverything: f.sendEverything,
      branchFilter: f.branchFilter,
      meta: f.meta,
      isActive: f.isActive,
    });
    return toHookDto(row, this.box);
  }

  async edit(actor: ActorDto | null, scope: HookScopeDto, hookId: number, body: EditHookBody): Promise<HookDto> {
    const owner = await this.scopes.resolve(actor, scope);
    const current = await this.hooks.find(owner, hookId);
    if (!current) throw DomainError.notFound('hook does not exist');
    const c = checkEditHook(body, current.type, hookMeta(current));
    // A client that PATCHes back what GET showed sends masked credentials: keep the stored ones.
    if (c.url !== undefined && isMaskOf(c.url, current.url, maskUrlCredentials)) delete c.url;
    if (c.authorizationHeader && isMaskOf(c.authorizationHeader, openOrEmpty(this.box, current.authorizationSealed), maskCredential)) {
      delete c.authorizationHeader;
    }
    const data: Prisma.WebhookUncheckedUpdateInput = {};
    if (c.url !== undefined) data.url = c.url;
    if (c.contentType !== undefined) data.contentType = c.contentType;
    if (c.secret !== undefined) data.secretSealed = this.box.sealOptional(c.secret);
    if (c.authorizationHeader !== undefined) data.authorizationSealed = this.box.sealOptional(c.authorizationHeader);
    if (c.events !== undefined) data.events = c.events;
    if (c.sendEverything !== undefined) data.sendEverything = c.sendEverything;
    if (c.branchFilter !== undefined) data.branchFilter = c.branchFilter;
    if (c.meta !== undefined) data.meta = c.meta;
    if (c.isActive !== undefined) data.isActive = c.isActive;
    const updated = Object.keys(data).length ? await this.hooks.update(owner, hookId, data) : current;
    if (!updated) throw DomainError.notFound('hook does not exist');
    return toHookDto(updated, this.box);
  }

  async delete(actor: ActorDto | null, scope: HookScopeDto, hookId: number): Promise<void> {
    const owner = await this.scopes.resolve(actor, scope);
    if (!(await this.hooks.delete(owner, hookId))) throw DomainError.notFound('hook does not exist');
  }

  async repositoryInit(repoId: number): Promise<RepositoryInitReply> {
    return { copied: await this.hooks.copyDefaultHooks(repoId) };
  }

  /** Gitea's hook test: a push of the head of `ref`, delivered regardless of events, branch filter or active flag. */
  async test(actor: ActorDto | null, scope: HookScopeDto, hookId: number, ref?: string): Promise<HookDeliveryDto> {
    const owner = await this.scopes.resolve(actor, scope);
    if (owner.level !== 'repo' || !scope.repo || !scope.access) {
      throw DomainError.notFound('hook tests exist for repository hooks only');
    }
    const hook = await this.hooks.find(owner, hookId);
    if (!hook) throw DomainError.notFound('hook does not exist');
    const repo = scope.repo;
    const branch = ref || repo.defaultBranch;
    const commit = await this.headCommit(actor, repo, scope.access, branch);
    const sender = await this.senderOf(actor);
    const sha = commit?.id ?? ZERO_SHA;
    const fullName = `${repo.ownerName}/${repo.name}`;
    const links = repoUrls(this.settings.rootUrl, repo);
    const payload = pushPayload({
      repository: {
        id: repo.id,
        owner: { id: repo.ownerId, login: repo.ownerName, username: repo.ownerName },
        name: repo.name,
        full_name: fullName,
        private: repo.private ?? false,
        empty: repo.empty ?? false,
        html_url: links.html,
        url: links.api,
        clone_url: links.clone,
        default_branch: repo.defaultBranch,
      },
      pusher: sender,
      update: { ref: `refs/heads/${branch}`, old: sha, new: sha, commits: commit ? [commit] : [], totalCommits: commit ? 1 : 0 },
      urls: links,
    });
    if (commit) payload.compare_url = links.compare(sha, sha);
    const delivery = await this.testDelivery.deliverTest(hook, { eventType: 'push', key: 'test', payload }, repo.id);
    if (!delivery) throw DomainError.unprocessable('this hook type sends nothing for a push without commits');
    return delivery;
  }

  /** The branch's head commit (Gitea `PayloadCommit`), or null when the branch or repo-service is not there. */
  private async headCommit(
    actor: ActorDto | null,
    repo: RepoRefDto,
    access: AccessLevel,
    branch: string,
  ): Promise<PushedCommit | null> {
    try {
      const b = await this.rpc.send(
        RepoSubjects.branchGet,
        { actor, repo, access, branch },
        { timeoutMs: 5_000 },
      );
      return b.commit ? (b.commit as unknown as PushedCommit) : null;
    } catch (err) {
      if (err instanceof DomainError && [ErrorCode.NOT_FOUND, ErrorCode.UNAVAILABLE, ErrorCode.TIMEOUT].includes(err.code)) {
        this.logger.warn(`hook test without a commit: ${RepoSubjects.branchGet} answered ${err.code}`);
        return null;
      }
      throw err;
    }
  }

  private async senderOf(actor: ActorDto | null): Promise<UserDto | Record<string, unknown> | null> {
    if (!actor) return null;
    try {
      return await this.rpc.send(IdentitySubjects.userGet, { actor, username: actor.login }, { timeoutMs: 3_000 });
    } catch {
      return { id: actor.id, login: actor.login, username: actor.login, is_admin: actor.isAdmin };
    }
  }
}
