import type { PullRequestDto } from '@cairn/contracts';

/** The three views of a pull request, as Gitea names them in its paths (`/pulls/{n}`, `/commits`, `/files`). */
export type PullTab = 'conversation' | 'commits' | 'files';

export interface PullTabsView {
  tabs: Array<{ key: PullTab; href: string; label: string; count: number | null; current: boolean }>;
}

/** `commits` is null (count hidden) unless the page has the total of `repo.pull-request.commits`. */
export function pullTabsView(pullPath: string, pr: Pick<PullRequestDto, 'comments' | 'changed_files'>, current: PullTab, commits: number | null): PullTabsView {
  const tab = (key: PullTab, href: string, label: string, count: number | null) => ({ key, href, label, count, current: key === current });
  return {
    tabs: [
      tab('conversation', pullPath, 'Conversation', pr.comments),
      tab('commits', `${pullPath}/commits`, 'Commits', commits),
      tab('files', `${pullPath}/files`, 'Files changed', pr.changed_files ?? null),
    ],
  };
}
