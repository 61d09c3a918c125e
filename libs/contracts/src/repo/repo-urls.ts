/** Every piece from data is percent-encoded per segment (names may hold `#`, `?`, `%`), so a link cannot point elsewhere. */

export interface RepoUrlTarget {
  ownerName: string;
  name: string;
}

/** `[server] SSH_USER`, `SSH_DOMAIN` (or ROOT_URL's host) and `SSH_PORT`. */
export interface SshUrlSettings {
  sshUser: string;
  sshHost: string;
  sshPort: number;
}

export function encodePathSegments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export type RepoRefKind = 'branch' | 'tag' | 'commit';

export class RepoUrls {
  readonly html: string;
  readonly api: string;
  readonly clone: string;

  constructor(
    rootUrl: string,
    private readonly repo: RepoUrlTarget,
  ) {
    const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
    this.html = `${rootUrl}${path}`;
    this.api = `${rootUrl}api/v1/repos/${path}`;
    this.clone = `${this.html}.git`;
  }

  /** As Gitea: scp-like (`user@host:owner/name.git`) on port 22, an `ssh://` URL otherwise. */
  ssh(settings: SshUrlSettings): string {
    const path = `${encodeURIComponent(this.repo.ownerName)}/${encodeURIComponent(this.repo.name)}.git`;
    return settings.sshPort === 22
      ? `${settings.sshUser}@${settings.sshHost}:${path}`
      : `ssh://${settings.sshUser}@${settings.sshHost}:${settings.sshPort}/${path}`;
  }

  commit(sha: string): string {
    return `${this.html}/commit/${encodeURIComponent(sha)}`;
  }

  compare(base: string, head: string): string {
    return `${this.html}/compare/${encodePathSegments(base)}...${encodePathSegments(head)}`;
  }

  issue(index: number, isPull = false): string {
    return `${this.html}/${isPull ? 'pulls' : 'issues'}/${index}`;
  }

  /** Pull requests too: Gitea's `issue.APIURL()`. */
  issueApi(index: number): string {
    return `${this.api}/issues/${index}`;
  }

  src(kind: RepoRefKind, ref: string, path = ''): string {
    return `${this.html}/src/${kind}/${encodePathSegments(ref)}${path ? `/${encodePathSegments(path)}` : ''}`;
  }

  raw(kind: RepoRefKind, ref: string, path: string): string {
    return `${this.html}/raw/${kind}/${encodePathSegments(ref)}/${encodePathSegments(path)}`;
  }
}

export function repoUrls(rootUrl: string, repo: RepoUrlTarget): RepoUrls {
  return new RepoUrls(rootUrl, repo);
}
