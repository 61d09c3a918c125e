import type { RequireSigninView } from '../../config/gateway-settings.js';
import { imageTypeForName } from '../../http/user-content.js';

// `REQUIRE_SIGNIN_VIEW = expensive`: Gitea's list of repository pages anonymous visitors are sent to sign in from.
// Raw bytes of an image file stay open: the README on the open home page shows them, and they are one blob read.
const EXPENSIVE_REPO_PAGES = new Set([
  'archive', 'blame', 'commit', 'commits', 'graph', 'media', 'raw', 'src', 'wiki', 'activity', 'issues', 'pulls',
]);
/** First path segments that are site pages, never `{owner}`. */
const SITE_SEGMENTS = new Set(['user', 'login', 'explore', '-', 'api', 'assets', 'org', 'admin', 'repo', 'notifications']);

/** Percent-decoded as the router matches them (`%72aw` is `raw`): decided on what will be served, not its spelling. */
function routedSegments(path: string): string[] {
  return path.split('?')[0].split('/').filter(Boolean).map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

export function isExpensivePath(path: string): boolean {
  const segments = routedSegments(path);
  if (segments[0] === 'user' && segments[1] === 'events') return true;
  if (segments.length < 3 || SITE_SEGMENTS.has(segments[0])) return false;
  if ((segments[2] === 'raw' || segments[2] === 'media') && imageTypeForName(segments.at(-1) ?? '') !== null) return false;
  return EXPENSIVE_REPO_PAGES.has(segments[2]);
}

/** Whether an anonymous visitor of this page is sent to sign in first. Sign-in pages themselves are `public`. */
export function anonymousMustSignIn(mode: RequireSigninView, path: string, isPublic: boolean): boolean {
  if (isPublic) return false;
  if (mode === 'strict') return true;
  return mode === 'expensive' && isExpensivePath(path);
}
