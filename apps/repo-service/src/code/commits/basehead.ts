import { DomainError, type RepoRefDto } from '@cairn/contracts';

export interface BaseHead {
  base: string;
  head: string;
}

// Gitea's `CompareDiff` split: the first `...`, else the first `..`. A head naming another owner or repository is
// 404 (Gitea looks for a fork there; Cairn compares within one repository).
export function splitBaseHead(basehead: string, repo: RepoRefDto): BaseHead {
  let parts = splitOnce(basehead, '...') ?? splitOnce(basehead, '..');
  parts ??= [repo.defaultBranch, basehead];
  const [base, qualifiedHead] = parts;
  const head = headInRepo(qualifiedHead, repo);
  if (!base || !head) throw DomainError.notFound(`invalid compare "${basehead.slice(0, 200)}": base and head are required`);
  return { base, head };
}

function splitOnce(s: string, sep: string): [string, string] | null {
  const i = s.indexOf(sep);
  return i < 0 ? null : [s.slice(0, i), s.slice(i + sep.length)];
}

function headInRepo(head: string, repo: RepoRefDto): string {
  const parts = head.split(':');
  if (parts.length === 1) return head;
  if (parts.length > 2) throw DomainError.notFound(`invalid compare head "${head.slice(0, 200)}"`);
  const [where, ref] = parts;
  const slash = where.indexOf('/');
  const owner = slash < 0 ? where : where.slice(0, slash);
  const name = slash < 0 ? repo.name : where.slice(slash + 1);
  if (owner.toLowerCase() !== repo.ownerName.toLowerCase() || name.toLowerCase() !== repo.name.toLowerCase()) {
    throw DomainError.notFound(`comparing with another repository ("${where.slice(0, 200)}") is not supported`);
  }
  return ref;
}
