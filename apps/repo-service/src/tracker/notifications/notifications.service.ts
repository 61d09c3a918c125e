import { Injectable, Logger } from '@nestjs/common';
import {
  DomainError, ErrorCode, IdentitySubjects, NOTIFICATION_STATUSES, parseApiTime, placeholderUser, repoUrls, toApiTime, toPaging,
  type AccessLevel, type ActorDto, type AnyDomainEvent, type ListNotificationsRequest, type NotificationCountDto, type NotificationStatus,
  type NotificationThreadDto, type NotificationThreadRequest, type Paginated, type ReadNotificationsRequest,
  type UserDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { AccessService } from '../../foundation/access/access.service.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { RepositoriesRepository, type RepositoryRow } from '../../git-core/repositories/repositories.repository.js';
import { toRepositoryDto } from '../../git-core/repositories/repository.mapper.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { mentionedLogins, notifyTarget } from './notification-targets.js';
import { NotificationsRepository, type NotificationFilter, type NotificationRow } from './notifications.repository.js';

const NOT_YOURS = 'only user itself and admin are allowed to read/change this thread';

/** Gitea's `status-types` parsing: known values only (lower-cased, trimmed); none known → the defaults. */
function statusesOf(values: string[] | undefined, defaults: NotificationStatus[]): NotificationStatus[] {
  const known = (values ?? [])
    .map((v) => v.trim().toLowerCase())
    .filter((v): v is NotificationStatus => (NOTIFICATION_STATUSES as readonly string[]).includes(v));
  return known.length ? [...new Set(known)] : defaults;
}

/** `to-status`: a known status, or `read`. */
function targetStatus(value: string | undefined): NotificationStatus {
  return statusesOf(value ? [value] : [], ['read'])[0];
}

function queryTime(name: string, value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const t = parseApiTime(value);
  if (!t) throw DomainError.unprocessable(`${name} must be an RFC 3339 date-time`);
  return t;
}

/** Gitea's `routers/api/v1/notify`; consumed here beside the access rules, so only readers get threads. */
@Injectable()
export class NotificationsService {
  private readonly logger = new Logger('NotificationsService');

  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly repositories: RepositoriesRepository,
    private readonly access: AccessService,
    private readonly identity: IdentityDirectory,
    private readonly views: RepoViews,
    private readonly rpc: RpcClient,
  ) {}


  /** Applies one event (idempotent: a redelivered event changes nothing). */
  async fromEvent(event: AnyDomainEvent): Promise<void> {
    const target = notifyTarget(event);
    if (!target) return;
    const issue = await this.notifications.findIssue(target.repoId, target.index);
    const repo = issue ? await this.repositories.findById(target.repoId) : null;
    if (!issue || !repo) return; // deleted since: nothing to notify about
    const at = new Date(event.occurredAt);
    const mentions = mentionedLogins(target.text);
    const candidates = new Set(
      target.receiverId !== undefined
        ? [target.receiverId]
        : await this.notifications.recipients(repo.id, issue.id, issue.posterId, at),
    );
    const lookup = await this.rpc.send(IdentitySubjects.userLookup, {
      ids: [...candidates].filter((id) => id > 0),
      ...(mentions.length ? { logins: mentions } : {}),
    });
    for (const u of lookup.users) if (mentions.includes(u.login.toLowerCase())) candidates.add(u.id);
    const known = new Map(lookup.users.map((u) => [u.id, u]));
    const admins = new Set(lookup.adminIds ?? []);
    const recipients: number[] = [];
    for (const id of candidates) {
      if (id === target.doerId || !known.has(id)) continue; // the doer, and users gone since
      if (repo.ownerKind === 'organization' && id === repo.ownerId) continue; // an organization reads nothing
      // Judged by the issue's own unit: a team without pull requests hears nothing of them (not even titles).
      const level = await this.access.unitAccessById({ id, isAdmin: admins.has(id) }, repo.id, issue.isPull ? 'pulls' : 'issues');
      if (level !== 'none') recipients.push(id);
    }
    if (recipients.length === 0) return;
    await this.notifications.touch(recipients, {
      repoId: repo.id, issueId: issue.id, commentId: target.commentId, eventId: event.id, at,
    });
    this.logger.debug(`${event.type} ${event.id}: ${recipients.length} thread(s)`);
  }


  async list(req: ListNotificationsRequest): Promise<Paginated<NotificationThreadDto>> {
    const q = req.query ?? {};
    const types = q['subject-type'] ?? [];
    const wantIssues = types.length === 0 || types.includes('issue');
    const wantPulls = types.length === 0 || types.includes('pull');
    if (!wantIssues && !wantPulls) return { items: [], total: 0 }; // commits and repositories: none in Cairn
    const filter: NotificationFilter = {
      userId: req.actor.id,
      repoId: req.repo?.id,
      statuses: q.all ? undefined : statusesOf(q['status-types'], ['unread', 'pinned']),
      isPull: wantIssues && wantPulls ? undefined : wantPulls,
      updatedAfter: queryTime('since', q.since),
      updatedBefore: queryTime('before', q.before),
    };
    const { rows, total } = await this.notifications.list(filter, toPaging(q));
    return { items: await this.render(req.actor, rows), total };
  }

  async read(req: ReadNotificationsRequest): Promise<NotificationThreadDto[]> {
    const q = req.query ?? {};
    const filter: NotificationFilter = {
      userId: req.actor.id,
      repoId: req.repo?.id,
      statuses: q.all ? undefined : statusesOf(q['status-types'], ['unread']),
      updatedBefore: queryTime('last_read_at', q.last_read_at),
    };
    return this.render(req.actor, await this.notifications.setStatusWhere(filter, targetStatus(q['to-status'])));
  }

  async count(actor: ActorDto): Promise<NotificationCountDto> {
    return { new: await this.notifications.countUnread(actor.id) };
  }

  async thread(req: NotificationThreadRequest): Promise<NotificationThreadDto> {
    return (await this.render(req.actor, [await this.own(req)]))[0];
  }

  async readThread(req: NotificationThreadRequest): Promise<NotificationThreadDto> {
    const row = await this.own(req);
    return (await this.render(req.actor, [await this.notifications.setStatus(row.id, targetStatus(req.toStatus))]))[0];
  }

  /** A thread of the actor's (site admins may see anyone's): 404 when missing, 403 when someone else's. */
  private async own(req: NotificationThreadRequest): Promise<NotificationRow> {
    const row = await this.notifications.findById(req.id);
    if (!row) throw DomainError.notFound(`notification thread ${req.id} does not exist`);
    if (row.userId !== req.actor.id && !req.actor.isAdmin) throw DomainError.forbidden(NOT_YOURS);
    const readable = await this.readableBy(req.actor, [row]);
    if (!readable.has(row.id)) throw DomainError.notFound(`notification thread ${req.id} does not exist`);
    return row;
  }

  /** Threads the actor may read now (the access rules' viewer, two-factor policy included). */
  private async readableBy(actor: ActorDto, rows: NotificationRow[]): Promise<Set<number>> {
    const viewer = this.access.viewer(actor);
    const levels = new Map<string, Promise<AccessLevel>>();
    const readable = new Set<number>();
    for (const row of rows) {
      const unit = row.issue.isPull ? 'pulls' : 'issues';
      const key = `${row.repoId}:${unit}`;
      if (!levels.has(key)) {
        levels.set(key, this.access.unitAccessById(viewer, row.repoId, unit).catch((err: unknown) => {
          if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return 'none' as const;
          throw err;
        }));
      }
      if ((await levels.get(key)) !== 'none') readable.add(row.id);
    }
    return readable;
  }


  /** Gitea's `NotificationThread`s: repositories and owners loaded once per page. */
  private async render(actor: ActorDto, all: NotificationRow[]): Promise<NotificationThreadDto[]> {
    const readable = await this.readableBy(actor, all);
    const rows = all.filter((r) => readable.has(r.id));
    if (rows.length === 0) return [];
    const repos = new Map<number, RepositoryRow>();
    for (const id of new Set(rows.map((r) => r.repoId))) {
      const repo = await this.repositories.findById(id);
      if (repo) repos.set(id, repo);
    }
    const owners = await this.identity.usersById([...repos.values()].map((r) => r.ownerId));
    const latest = await this.notifications.latestComments(rows.map((r) => r.issueId));
    const rootUrl = this.views.rootUrl;
    const out: NotificationThreadDto[] = [];
    for (const row of rows) {
      const repo = repos.get(row.repoId);
      if (!repo) continue;
      const owner: UserDto = owners.get(repo.ownerId) ?? placeholderUser(repo.ownerId, repo.ownerName, rootUrl);
      // Gitea renders the repository with read access and then drops the permissions (they would be wrong).
      const { permissions: _dropped, ...repository } = toRepositoryDto(repo, owner, 'read', this.views.urls);
      const urls = repoUrls(rootUrl, { ownerName: repo.ownerName, name: repo.name });
      const issue = row.issue;
      const html = urls.issue(issue.index, issue.isPull);
      const commentId = latest.get(issue.id);
      out.push({
        id: row.id,
        repository,
        subject: {
          title: issue.title,
          url: urls.issueApi(issue.index),
          html_url: html,
          latest_comment_url: commentId ? `${urls.api}/issues/comments/${commentId}` : '',
          latest_comment_html_url: commentId ? `${html}#issuecomment-${commentId}` : '',
          type: issue.isPull ? 'Pull' : 'Issue',
          state: issue.isPull && issue.pullRequest?.merged ? 'merged' : (issue.state as 'open' | 'closed'),
        },
        unread: row.status === 'unread',
        pinned: row.status === 'pinned',
        updated_at: toApiTime(row.updatedAt),
        url: `${rootUrl}api/v1/notifications/threads/${row.id}`,
      });
    }
    return out;
  }
}
