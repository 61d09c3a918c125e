import type { NotificationThreadDto } from '@cairn/contracts';

export interface ThreadView {
  id: number;
  repo: string;
  title: string;
  /** A site path (the thread's `html_url` without the root URL), so links stay on this site. */
  href: string;
  kind: 'issue' | 'pull';
  state: string;
  unread: boolean;
  pinned: boolean;
  updatedAt: string;
}

/** The path of an absolute URL of this site (`html_url` carries ROOT_URL); anything unparsable is `#`. */
export function sitePath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return '#';
  }
}

export function threadView(t: NotificationThreadDto): ThreadView {
  return {
    id: t.id, repo: t.repository.full_name, title: t.subject.title, href: sitePath(t.subject.html_url),
    kind: t.subject.type === 'Pull' ? 'pull' : 'issue', state: t.subject.state, unread: t.unread, pinned: t.pinned,
    updatedAt: t.updated_at,
  };
}
