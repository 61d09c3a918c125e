import type { RepoRefDto } from '@cairn/contracts';

/** Gitea's `repo.APIURL()`: `<ROOT_URL>api/v1/repos/<owner>/<name>`. */
export function repoApiUrl(rootUrl: string, repo: Pick<RepoRefDto, 'ownerName' | 'name'>): string {
  return `${rootUrl}api/v1/repos/${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
}

/** Gitea's `repo.HTMLURL()`: `<ROOT_URL><owner>/<name>`. */
export function repoHtmlUrl(rootUrl: string, repo: Pick<RepoRefDto, 'ownerName' | 'name'>): string {
  return `${rootUrl}${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
}
