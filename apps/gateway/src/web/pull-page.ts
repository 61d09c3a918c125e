import type { PullRequestDto } from '@cairn/contracts';

/** How often the merge box reloads itself while the check is running (Gitea's `data-pull-merge-box-reloading-interval`). */
export const MERGE_BOX_RELOAD_MS = 2000;

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STATE_TEXT: Record<string, string> = {
  checking: 'Checking for merge conflicts…',
  mergeable: 'This branch has no conflicts with the base branch.',
  conflict: 'This branch has conflicts that must be resolved.',
  error: 'The mergeability check failed.',
};

/**
 * The merge box fragment (`GET /{owner}/{repo}/pulls/{index}/merge_box`): the pull request's mergeability, the
 * conflicted files, and — while `checking` — the reload interval the page script polls with.
 */
export function renderMergeBox(pr: PullRequestDto): string {
  const state = pr.merged ? 'merged' : pr.state === 'closed' ? 'closed' : pr.mergeable_state;
  const reloading = state === 'checking' ? ` data-pull-merge-box-reloading-interval="${MERGE_BOX_RELOAD_MS}"` : '';
  const text = pr.merged
    ? `Merged${pr.merge_commit_sha ? ` as <code>${escapeHtml(pr.merge_commit_sha.slice(0, 10))}</code>` : ''}.`
    : pr.state === 'closed'
      ? 'This pull request is closed.'
      : escapeHtml(STATE_TEXT[pr.mergeable_state] ?? pr.mergeable_state);
  const files = pr.conflicted_files.length
    ? `<ul class="conflicted-files">${pr.conflicted_files.map((f) => `<li><code>${escapeHtml(f)}</code></li>`).join('')}</ul>`
    : '';
  return (
    `<div id="merge-box" class="merge-box state-${escapeHtml(state)}" data-mergeable-state="${escapeHtml(pr.mergeable_state)}"${reloading}>` +
    `<p><strong>${escapeHtml(state)}</strong> — ${text}</p>${files}</div>`
  );
}

/** The pull-request page: title, state, branches and the self-reloading merge box. */
export function renderPullPage(pr: PullRequestDto, owner: string, repo: string, nonce: string): string {
  const title = `${pr.title} · Pull Request #${pr.number} · ${owner}/${repo}`;
  const state = pr.merged ? 'merged' : pr.state;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#222}
.state{display:inline-block;padding:.1rem .6rem;border-radius:1rem;background:#ddd}
.merge-box{border:1px solid #ccc;border-radius:.4rem;padding:.5rem 1rem;margin-top:1rem}
.state-mergeable{border-color:#2a2}.state-conflict,.state-error{border-color:#c22}.state-checking{border-color:#c90}
</style>
</head>
<body>
<h1><span id="pull-title">${escapeHtml(pr.title)}</span> <small>#${pr.number}</small></h1>
<p><span class="state" id="pull-state">${escapeHtml(state)}</span>
 <code>${escapeHtml(pr.head.label)}</code> → <code>${escapeHtml(pr.base.label)}</code>
 · mergeable_state: <span id="mergeable-state">${escapeHtml(pr.mergeable_state)}</span></p>
${renderMergeBox(pr)}
<script nonce="${escapeHtml(nonce)}">
(function () {
  function schedule() {
    var box = document.getElementById('merge-box');
    var ms = box && Number(box.getAttribute('data-pull-merge-box-reloading-interval'));
    if (!ms) return;
    setTimeout(function () {
      fetch(location.pathname.replace(/\\/$/, '') + '/merge_box', { credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var tmp = document.createElement('div');
          tmp.innerHTML = html;
          var next = tmp.firstElementChild;
          if (next) {
            box.replaceWith(next);
            var s = document.getElementById('mergeable-state');
            if (s) s.textContent = next.getAttribute('data-mergeable-state') || '';
          }
          schedule();
        })
        .catch(function () { schedule(); });
    }, ms);
  }
  schedule();
})();
</script>
</body>
</html>
`;
}
