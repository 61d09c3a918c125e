/** Gitea's closing keywords (`[issue] CLOSE_KEYWORDS` defaults): a merged pull request saying one before `#n` closes n. */
const CLOSING = /(?:^|[\s([])(?:close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved):?\s+(?:([\w.-]+)\/([\w.-]+))?#(\d{1,9})\b/gi;

/** `Closes #2`, `fixes owner/repo#3` (case-insensitive, as Gitea); references to other repositories are left out. */
export function closingReferences(text: string, owner: string, name: string): number[] {
  const found = new Set<number>();
  for (const m of text.matchAll(CLOSING)) {
    const [, refOwner, refRepo, index] = m;
    if (refOwner && (refOwner.toLowerCase() !== owner.toLowerCase() || refRepo.toLowerCase() !== name.toLowerCase())) continue;
    if (Number(index) > 0) found.add(Number(index));
  }
  return [...found];
}
