import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, MAX_INT32, RunnersEvents, runnerEventData, toPaging, type ActionRunnerDto, type ActionRunnersResponseDto,
  type ActionsScopeDto, type ActorDto, type ListQuery, type RunnerLabelsDto,
} from '@cairn/contracts';
import { ActionsScopeResolver, type ScopeKey } from '../actions/actions-scope.js';
import { RUNNERS_SETTINGS, type RunnersSettings } from '../config/runners-settings.js';
import type { Runner } from '../generated/prisma/client.js';
import { Transactions } from '../prisma/transactions.js';
import { toLabelList, toRunnerJson } from './runner-json.js';
import { RunnersRepository } from './runners.repository.js';
import { EventOutbox } from '@cairn/platform';

/** Gitea's "editable in context": the instance edits any runner, a user or organization its own, a repository its own. */
function editableIn(scope: ActionsScopeDto, key: ScopeKey, r: Runner): boolean {
  if (scope.level === 'admin') return true;
  return key.repoId > 0 ? r.repoId === key.repoId : r.ownerId === key.ownerId && r.repoId === 0;
}

/** Gitea 1.24's runner API and GitHub's label routes; a runner deleted, missing or of another scope is 404. */
@Injectable()
export class RunnersService {
  constructor(
    private readonly runners: RunnersRepository,
    private readonly transactions: Transactions,
    private readonly scopes: ActionsScopeResolver,
    private readonly outbox: EventOutbox,
    @Inject(RUNNERS_SETTINGS) private readonly settings: RunnersSettings,
  ) {}

  async list(actor: ActorDto | null, scope: ActionsScopeDto, query?: ListQuery): Promise<ActionRunnersResponseDto> {
    const key = await this.scopes.resolve(actor, scope);
    const { skip, take } = toPaging(query);
    const { rows, total } = await this.runners.page(scope.level === 'admin' ? 'all' : key, skip, take);
    const now = Date.now();
    return { runners: rows.map((r) => toRunnerJson(r, this.settings, now)), total_count: total };
  }

  async get(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<ActionRunnerDto> {
    return toRunnerJson(await this.find(actor, scope, runnerId), this.settings);
  }

  /** Soft delete (the row stays for its tasks; the protocol refuses the runner), with the audit event. */
  async delete(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<void> {
    const runner = await this.find(actor, scope, runnerId);
    const deleted = await this.transactions.run(async (tx) => {
      if (!(await this.runners.markDeleted(tx, runner.id))) return false;
      await this.outbox.record(tx, RunnersEvents.runnerDeleted, runnerEventData(runner, actor?.id ?? null));
      return true;
    });
    // Deleted by a concurrent call between the read and the write: the same as already deleted.
    if (!deleted) throw DomainError.notFound('Runner not found');
    this.outbox.kick();
  }

  async labels(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<RunnerLabelsDto> {
    return toLabelList((await this.find(actor, scope, runnerId)).labels);
  }

  async addLabels(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number, labels: string[]): Promise<RunnerLabelsDto> {
    return this.changeLabels(actor, scope, runnerId, (current) => unique([...current, ...labels]));
  }

  async setLabels(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number, labels: string[]): Promise<RunnerLabelsDto> {
    return this.changeLabels(actor, scope, runnerId, () => unique(labels));
  }

  async clearLabels(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<RunnerLabelsDto> {
    return this.changeLabels(actor, scope, runnerId, () => []);
  }

  /** 404 when the runner has no such label (GitHub's answer). */
  async removeLabel(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number, name: string): Promise<RunnerLabelsDto> {
    return this.changeLabels(actor, scope, runnerId, (current) => {
      if (!current.includes(name)) throw DomainError.notFound(`the runner has no label ${JSON.stringify(name)}`);
      return current.filter((l) => l !== name);
    });
  }

  private async changeLabels(
    actor: ActorDto | null,
    scope: ActionsScopeDto,
    runnerId: number,
    change: (current: string[]) => string[],
  ): Promise<RunnerLabelsDto> {
    const runner = await this.find(actor, scope, runnerId);
    const labels = await this.transactions.run(async (tx) => {
      const current = await this.runners.lockLabels(tx, runner.id);
      if (!current) throw DomainError.notFound('Runner not found');
      const next = change(current);
      await this.runners.setLabels(tx, runner.id, next);
      return next;
    });
    return toLabelList(labels);
  }

  private async find(actor: ActorDto | null, scope: ActionsScopeDto, runnerId: number): Promise<Runner> {
    const key = await this.scopes.resolve(actor, scope);
    const runner =
      runnerId > 0 && runnerId <= MAX_INT32 ? await this.runners.findLive(runnerId) : null;
    if (!runner) throw DomainError.notFound('Runner not found');
    if (!editableIn(scope, key, runner)) throw DomainError.notFound('No permission to access this runner');
    return runner;
  }
}

function unique(labels: string[]): string[] {
  return [...new Set(labels)];
}
