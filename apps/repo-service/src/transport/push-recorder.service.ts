import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  IdentitySubjects, RepoEvents, isZeroId, repoUrls,
  type LookupUsersReply, type PushEventData, type PushedCommit, type RefUpdate, type UserDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../config/repo-settings.js';
import { CommitGraphMaintainer } from '../git/commit-graph-maintainer.js';
import { EventOutbox } from '../prisma/event-outbox.js';
import { hostOf, placeholderUser, toEventRepository, type RepoUrlSettings } from '../repositories/repository.mapper.js';
import { RepoStorage } from '../storage/repo-storage.js';
import { refCommits, type GitCommitInfo, type RefCommits } from './push-commits.js';
import type { RefUpdateLine } from './push-log.js';
import { PushRecorderRepository } from './push-recorder.repository.js';
import type { PushContext } from './push-sink.js';
import { TRANSPORT_SETTINGS, type TransportSettings } from './transport-settings.js';

/** At most this many distinct commit e-mails are resolved to user names per push. */
const MAX_EMAIL_LOOKUPS = 100;

/**
 * Turns the exact ref updates of one push into exactly one `repo.evt.push.received` event: the commits of each update
 * (from git), the pusher, repository owner and commit authors' user names (one identity call), then one transaction
 * that marks a first push (non-empty, default branch) and writes the event to the outbox. HEAD follows a first push.
 */
@Injectable()
export class PushRecorder {
  private readonly logger = new Logger('PushRecorder');

  constructor(
    private readonly store: PushRecorderRepository,
    private readonly rpc: RpcClient,
    private readonly outbox: EventOutbox,
    private readonly storage: RepoStorage,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(REPO_SETTINGS) private readonly repoSettings: RepoSettings,
    @Inject(TRANSPORT_SETTINGS) private readonly transport: TransportSettings,
    private readonly commitGraphs: CommitGraphMaintainer,
  ) {}

  /**
   * The push sink handed to the HTTP and SSH transports. Once the push is recorded, the repository's commit-graph
   * is brought up to date and the last commits at the pushed branches' new tips are cached, in the background (not
   * awaited: the client's push is done).
   */
  readonly sink = async (context: PushContext, updates: RefUpdateLine[]): Promise<void> => {
    try {
      await this.record(context, updates);
    } finally {
      void this.commitGraphs.schedule(context.dir, updates);
    }
  };

  async record(context: PushContext, lines: RefUpdateLine[]): Promise<void> {
    if (!lines.length) return;
    const current = await this.store.find(context.repoId);
    if (!current) {
      this.logger.warn(`push to repository ${context.repoId}, which no longer exists: no event`);
      return;
    }
    const computed: RefCommits[] = [];
    for (const line of lines) {
      computed.push(
        await refCommits(context.dir, line, this.transport.pushMaxCommits, lines).catch((err: Error) => {
          this.logger.error(`listing commits of ${line.ref} in repository ${context.repoId} failed: ${err.message}`);
          return { commits: [], total: 0 };
        }),
      );
    }
    const people = await this.lookupPeople(context.pusherId, current.ownerId, computed);
    const urls = this.urls();
    const pushedBranches = lines
      .filter((l) => l.ref.startsWith('refs/heads/') && !isZeroId(l.new))
      .map((l) => l.ref.slice('refs/heads/'.length));

    const done = await this.store.inTransaction(context.repoId, pushedBranches, async (tx, change) => {
      const repo = change.repository;
      const owner = people.users.get(repo.ownerId) ?? placeholderUser(repo.ownerId, repo.ownerName, urls.rootUrl);
      const htmlUrl = repoUrls(urls.rootUrl, repo).html;
      const updates: RefUpdate[] = lines.map((line, i) => ({
        ref: line.ref,
        old: line.old,
        new: line.new,
        commits: computed[i].commits.map((c) => this.toPushedCommit(c, htmlUrl, people)),
        totalCommits: computed[i].total,
      }));
      const pusher = context.pusherId === null ? null : (people.users.get(context.pusherId) ?? null);
      const data: PushEventData = { repository: toEventRepository(repo, owner, urls), pusher, updates };
      await this.outbox.record(tx, RepoEvents.pushReceived, data);
    });
    if (!done) {
      this.logger.warn(`push to repository ${context.repoId}, which was deleted meanwhile: no event`);
      return;
    }
    this.outbox.kick();
    const { initialBranch, repository } = done.change;
    if (initialBranch) {
      await this.storage.setHead(repository, initialBranch).catch((err: Error) => {
        this.logger.error(`pointing HEAD of repository ${repository.id} at ${initialBranch} failed: ${err.message}`);
      });
    }
  }

  private urls(): RepoUrlSettings {
    return {
      rootUrl: this.common.rootUrl,
      sshUser: this.repoSettings.sshUser,
      sshHost: this.repoSettings.sshDomain || hostOf(this.common.rootUrl),
      sshPort: this.common.sshPort,
    };
  }

  /** One identity call for the pusher, the owner and the commit authors/committers (by e-mail). */
  private async lookupPeople(
    pusherId: number | null,
    ownerId: number,
    computed: RefCommits[],
  ): Promise<{ users: Map<number, UserDto>; byEmail: Map<string, number> }> {
    const emails = new Set<string>();
    for (const c of computed.flatMap((r) => r.commits)) {
      for (const e of [c.authorEmail, c.committerEmail]) {
        if (e && emails.size < MAX_EMAIL_LOOKUPS) emails.add(e.toLowerCase());
      }
    }
    const ids = [...new Set([ownerId, ...(pusherId === null ? [] : [pusherId])])];
    try {
      const reply = await this.rpc.send<LookupUsersReply>(IdentitySubjects.userLookup, {
        ids,
        ...(emails.size ? { emails: [...emails] } : {}),
      });
      return {
        users: new Map(reply.users.map((u) => [u.id, u])),
        byEmail: new Map(Object.entries(reply.byEmail ?? {}).map(([e, id]) => [e.toLowerCase(), id])),
      };
    } catch (err) {
      // The push happened: record it even if names cannot be resolved right now.
      this.logger.warn(`user lookup for a push event failed: ${(err as Error).message}`);
      return { users: new Map(), byEmail: new Map() };
    }
  }

  private toPushedCommit(
    c: GitCommitInfo,
    htmlUrl: string,
    people: { users: Map<number, UserDto>; byEmail: Map<string, number> },
  ): PushedCommit {
    const username = (email: string) => {
      const id = people.byEmail.get(email.toLowerCase());
      return (id !== undefined && people.users.get(id)?.login) || '';
    };
    return {
      id: c.id,
      message: c.message,
      url: `${htmlUrl}/commit/${c.id}`,
      author: { name: c.authorName, email: c.authorEmail, username: username(c.authorEmail) },
      committer: { name: c.committerName, email: c.committerEmail, username: username(c.committerEmail) },
      timestamp: c.authorDate,
      added: c.added,
      removed: c.removed,
      modified: c.modified,
    };
  }
}
