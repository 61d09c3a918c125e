/**
 * A repository's URLs as Gitea writes them, every piece from data percent-encoded per segment (branch names, tags
 * and paths may hold `#`, `?`, `%`, spaces) so a link cannot point elsewhere.
 */

/** The repository a URL is for. */
export interface RepoUrlTarget {
  ownerName: string;
  name: string;
}

/** Where SSH clones go: `[server] SSH_USER`, `SSH_DOMAIN` (or ROOT_URL's host) and `SSH_PORT`. */
export interface SshUrlSettings {
  sshUser: string;
  sshHost: string;
  sshPort: number;
}

/** Percent-encodes each `/`-separated segment of a path or ref name, keeping the separators. */
export function encodePathSegments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** What `src/…` and `raw/…` links are relative to, in Gitea's spelling. */
export type RepoRefKind = 'branch' | 'tag' | 'commit';

/** The URLs of one repository under `[server] ROOT_URL` (which ends with `/`). */
export class RepoUrls {
  /** `<ROOT_URL><owner>/<name>` (Gitea's `repo.HTMLURL()`). */
  readonly html: string;
  /** `<ROOT_URL>api/v1/repos/<owner>/<name>` (Gitea's `repo.APIURL()`). */
  readonly api: string;
  /** `<ROOT_URL><owner>/<name>.git`: the HTTP clone URL. */
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

  /** `ssh_url` as Gitea writes it: scp-like (`user@host:owner/name.git`) on port 22, an `ssh://` URL otherwise. */
  ssh(settings: SshUrlSettings): string {
    const path = `${encodeURIComponent(this.repo.ownerName)}/${encodeURIComponent(this.repo.name)}.git`;
    return settings.sshPort === 22
      ? `${settings.sshUser}@${settings.sshHost}:${path}`
      : `ssh://${settings.sshUser}@${settings.sshHost}:${settings.sshPort}/${path}`;
  }

  /** The web page of a commit. */
  commit(sha: string): string {
    return `${this.html}/commit/${encodeURIComponent(sha)}`;
  }

  /** The web page comparing two revisions (`base...head`), as push payloads' `compare_url`. */
  compare(base: string, head: string): string {
    return `${this.html}/compare/${encodePathSegments(base)}...${encodePathSegments(head)}`;
  }

  /** The web page of an issue, or of a pull request (`/pulls/N`). */
  issue(index: number, isPull = false): string {
    return `${this.html}/${isPull ? 'pulls' : 'issues'}/${index}`;
  }

  /** The API URL of an issue (pull requests too: Gitea's `issue.APIURL()`). */
  issueApi(index: number): string {
    return `${this.api}/issues/${index}`;
  }

  /** The web page of a file or directory at a branch, tag or commit (`src/branch/<branch>/<path>`). */
  src(kind: RepoRefKind, ref: string, path = ''): string {
    return `${this.html}/src/${kind}/${encodePathSegments(ref)}${path ? `/${encodePathSegments(path)}` : ''}`;
  }

  /** The raw bytes of a file at a branch, tag or commit (`raw/branch/<branch>/<path>`). */
  raw(kind: RepoRefKind, ref: string, path: string): string {
    return `${this.html}/raw/${kind}/${encodePathSegments(ref)}/${encodePathSegments(path)}`;
  }
}

/** The URLs of `repo` under `rootUrl` (`[server] ROOT_URL`, ending with `/`). */
export function repoUrls(rootUrl: string, repo: RepoUrlTarget): RepoUrls {
  return new RepoUrls(rootUrl, repo);
}
