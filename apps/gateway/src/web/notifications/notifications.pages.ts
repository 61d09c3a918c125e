import { DomainError, RepoSubjects } from '@cairn/contracts';
import { pageOf } from '../core/paging.js';
import { page, redirect, requireSignIn, type WebKit } from '../core/web-kit.js';
import { threadView } from './notifications.view.js';

const PAGE_SIZE = 20;
const STATUSES = ['read', 'unread', 'pinned'] as const;

/** Gitea's `/notifications` page, status and purge forms, through the API's `repo.notification.*` messages. */
export function registerNotificationPages(web: WebKit): void {
  web.get<Record<string, string>, { q?: string; page?: string }>('/notifications', async (ctx) => {
    const actor = requireSignIn(ctx);
    const read = ctx.query.q === 'read';
    const pageNo = pageOf(ctx.query);
    const [list, count] = await Promise.all([
      web.rpc.send(RepoSubjects.notificationList, {
        actor, query: { page: pageNo, limit: PAGE_SIZE, 'status-types': read ? ['read'] : ['unread', 'pinned'] },
      }),
      web.rpc.send(RepoSubjects.notificationCount, { actor }),
    ]);
    const at = (p: number) => `/notifications?${new URLSearchParams({ ...(read ? { q: 'read' } : {}), page: String(p) }).toString()}`;
    return page('notifications/list', 'Notifications', {
      read, unreadCount: count.new, threads: list.items.map(threadView), page: pageNo,
      prevUrl: pageNo > 1 ? at(pageNo - 1) : null, nextUrl: pageNo * PAGE_SIZE < list.total ? at(pageNo + 1) : null,
      tabs: [
        { href: '/notifications', label: 'Unread', current: !read },
        { href: '/notifications?q=read', label: 'Read', current: read },
      ],
      csrf: await ctx.csrfToken(),
    });
  });

  web.post('/notifications/status', async (ctx) => {
    const actor = requireSignIn(ctx);
    const id = Number(ctx.form.notification_id);
    if (!Number.isInteger(id) || id < 1) throw DomainError.unprocessable('notification_id must be a positive number');
    const status = ctx.form.status ?? 'read';
    if (!(STATUSES as readonly string[]).includes(status)) throw DomainError.unprocessable(`status must be one of: ${STATUSES.join(', ')}`);
    await web.rpc.send(RepoSubjects.notificationThreadRead, { actor, id, toStatus: status });
    return redirect(status === 'unread' ? '/notifications' : (ctx.form.back === 'read' ? '/notifications?q=read' : '/notifications'));
  });

  web.post('/notifications/purge', async (ctx) => {
    const actor = requireSignIn(ctx);
    await web.rpc.send(RepoSubjects.notificationRead, { actor, query: { 'status-types': ['unread'], 'to-status': 'read' } });
    await ctx.flash('success', 'All notifications are marked as read.');
    return redirect('/notifications');
  });
}
