/**
 * Pull requests end to end: the whole suite started like `npm start` (gateway, repo-service, the real
 * merge-check-worker process, Redis, NATS, PostgreSQL), real pushes with the git command over smart HTTP, and the
 * API and web page over HTTP. One suite per `[repository.pull-request] DELAY_CHECK_FOR_INACTIVE_DAYS` value.
 * Checks are counted as BullMQ jobs in the suite's own queue prefix (one job per pull request and commit pair).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullRequestDto } from '@cairn/contracts';
import { DELAY_KEY, PullsWorld, waitFor } from '../support/pulls-world.js';

describe('pull requests (DELAY_CHECK_FOR_INACTIVE_DAYS = 7)', () => {
  const w = new PullsWorld();
  beforeAll(() => w.start({ [DELAY_KEY]: '7' }));
  afterAll(() => w.stop());

  it('checks a new pull request at once and reports mergeability in Gitea\'s JSON', async () => {
    await w.commitAndPush('feature', { 'feature.txt': 'new\n' }, 'add feature');
    const pr = await w.open('feature', 'Add feature');
    expect(pr).toMatchObject({ number: 1, state: 'open', merged: false, head: { ref: 'feature', sha: await w.tip('feature') }, base: { ref: 'main' } });
    const done = await w.settled(pr.number);
    expect(done).toMatchObject({ mergeable: true, mergeable_state: 'mergeable', conflicted_files: [] });
    expect(await w.bare('rev-parse', 'refs/pull/1/head')).toBe(await w.tip('feature'));
    const one = await w.api.get(w.path('/pulls/1'), { token: w.token });
    expect(one.body).toMatchObject({ number: 1, mergeable: true, changed_files: 1, additions: 1 });
    const byBranches = await w.api.get(w.path('/pulls/main/feature'), { token: w.token });
    expect(byBranches.status, byBranches.text).toBe(200);
    expect(byBranches.body.number).toBe(1);
    const files = await w.api.get(w.path('/pulls/1/files'), { token: w.token });
    expect(files.body).toMatchObject([{ filename: 'feature.txt', status: 'added' }]);
    const commits = await w.api.get(w.path('/pulls/1/commits'), { token: w.token });
    expect(commits.body).toMatchObject([{ sha: await w.tip('feature'), commit: { message: 'add feature\n' } }]);
    const dup = await w.api.post(w.path('/pulls'), { token: w.token, body: { head: 'feature', base: 'main', title: 'again' } });
    expect(dup.status, dup.text).toBe(409);
  });

  it('detects conflicts and names the conflicted files', async () => {
    await w.commitAndPush('clash', { 'README.md': 'branch version\n', 'notes.txt': 'branch\n' }, 'clash');
    await w.commitAndPush('main', { 'README.md': 'main version\n', 'notes.txt': 'main\n' }, 'main edits');
    const pr = await w.open('clash');
    const done = await w.settled(pr.number);
    expect(done).toMatchObject({ mergeable: false, mergeable_state: 'conflict' });
    expect([...done.conflicted_files].sort()).toEqual(['README.md', 'notes.txt']);
    const merge = await w.api.post(w.path(`/pulls/${pr.number}/merge`), { token: w.token, body: { Do: 'merge' } });
    expect(merge.status, merge.text).toBe(409);
    expect(merge.body.message).toMatch(/README\.md/);
  });

  it('after a base push checks only the recently active pull requests; a view queues a delayed one, once', async () => {
    const prs: PullRequestDto[] = [];
    for (let i = 0; i < 4; i++) {
      await w.commitAndPush(`d${i}`, { [`d${i}.txt`]: `${i}\n` }, `d${i}`);
      prs.push(await w.open(`d${i}`));
    }
    for (const p of prs) await w.settled(p.number);
    const [active, , stale1, stale2] = prs;
    await w.backdate([stale1.number, stale2.number, prs[1].number], 30);
    await w.backdate([active.number], 1);
    const base = await w.commitAndPush('main', { 'moved.txt': 'base moved\n' }, 'move main');

    await w.settled(active.number, base);
    await waitFor('the base move of every pull request', async () => {
      const listed = await Promise.all(prs.map((p) => w.listed(p.number)));
      return listed.every((p) => p.base.sha === base);
    });
    await waitFor('an idle queue', () => w.queueIdle());
    const fresh = await w.listed(active.number);
    expect(await w.job(fresh, base)).toBeTruthy();
    for (const p of [prs[1], stale1, stale2]) {
      const listed = await w.listed(p.number);
      expect(listed.mergeable_state).toBe('checking');
      expect(listed.mergeable).toBe(false);
      expect(await w.job(listed, base)).toBeUndefined();
    }

    // Ten concurrent views of a delayed pull request: one job, one check.
    const views = await Promise.all(Array.from({ length: 10 }, () => w.api.get(w.path(`/pulls/${stale1.number}`), { token: w.token })));
    expect(views.every((v) => v.status === 200)).toBe(true);
    const checked = await w.settled(stale1.number, base);
    expect(checked.mergeable_state).toBe('mergeable');
    await waitFor('an idle queue', () => w.queueIdle());
    const jobs = (await w.jobsOf(stale1.id)).filter((j) => j.data.baseSha === base);
    expect(jobs).toHaveLength(1);

    // The web page is a view too, even for an anonymous visitor of this public repository; it shows the reloading
    // merge box while checking (test/e2e/web-pulls.e2e-spec.ts drives it in a browser).
    const page = await fetch(`${w.suite.baseUrl}/${w.owner.username}/${w.repo}/pulls/${stale2.number}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain(`#${stale2.number}`);
    expect(html).toContain('data-pull-merge-box-reloading-interval="2000"');
    await w.settled(stale2.number, base);
    const box = await fetch(`${w.suite.baseUrl}/${w.owner.username}/${w.repo}/pulls/${stale2.number}/merge_box`);
    const boxHtml = await box.text();
    expect(boxHtml).toContain('data-mergeable-state="mergeable"');
    expect(boxHtml).not.toContain('data-pull-merge-box-reloading-interval');
    // The one never viewed is still delayed.
    expect((await w.listed(prs[1].number)).mergeable_state).toBe('checking');
  });

  it('merges in each style with the right history', async () => {
    const styles = ['merge', 'squash', 'rebase', 'fast-forward-only'] as const;
    for (const style of styles) {
      const branch = `m-${style}`;
      await w.commitAndPush(branch, { [`${branch}-1.txt`]: '1\n' }, `${style} one`);
      await w.commitAndPush(branch, { [`${branch}-2.txt`]: '2\n' }, `${style} two`);
      if (style !== 'fast-forward-only') await w.commitAndPush('main', { [`before-${style}.txt`]: 'x\n' }, `main before ${style}`);
      const pr = await w.open(branch, `Style ${style}`);
      const base = await w.tip('main');
      const head = await w.tip(branch);
      await w.settled(pr.number, base);
      const res = await w.api.post(w.path(`/pulls/${pr.number}/merge`), { token: w.token, body: { Do: style, head_commit_id: head } });
      expect(res.status, `${style}: ${res.text}`).toBe(200);
      const main = await w.tip('main');
      const parents = (await w.bare('rev-list', '--parents', '-n', '1', main)).split(' ').slice(1);
      if (style === 'merge') expect(parents).toEqual([base, head]);
      if (style === 'squash') {
        expect(parents).toEqual([base]);
        expect(await w.bare('log', '-1', '--format=%s', main)).toBe(`Style ${style} (#${pr.number})`);
      }
      if (style === 'rebase') {
        expect(parents).toHaveLength(1);
        expect(await w.bare('log', '--format=%s', `${base}..${main}`)).toBe(`${style} two\n${style} one`);
        expect(await w.bare('rev-parse', `${main}~2`)).toBe(base);
      }
      if (style === 'fast-forward-only') expect(main).toBe(head);
      const after = await w.api.get(w.path(`/pulls/${pr.number}`), { token: w.token });
      expect(after.body).toMatchObject({ merged: true, state: 'closed', merge_commit_sha: main, merged_by: { login: w.owner.username } });
      expect((await w.api.get(w.path(`/pulls/${pr.number}/merge`), { token: w.token })).status).toBe(204);
    }
  });

  it('answers 409 for a stale head_commit_id and 405 with the reason for a closed pull request', async () => {
    const old = await w.commitAndPush('stale', { 'stale.txt': '1\n' }, 'stale one');
    const pr = await w.open('stale');
    await w.commitAndPush('stale', { 'stale.txt': '2\n' }, 'stale two');
    const res = await w.api.post(w.path(`/pulls/${pr.number}/merge`), { token: w.token, body: { Do: 'merge', head_commit_id: old } });
    expect(res.status, res.text).toBe(409);
    const closed = await w.api.patch(w.path(`/pulls/${pr.number}`), { token: w.token, body: { state: 'closed' } });
    expect(closed.status, closed.text).toBe(201);
    const refused = await w.api.post(w.path(`/pulls/${pr.number}/merge`), { token: w.token, body: { Do: 'merge' } });
    expect(refused.status, refused.text).toBe(405);
    expect(refused.body.message).toMatch(/closed/);
  });

  it('locks a pull request like an issue', async () => {
    await w.commitAndPush('lockme', { 'l.txt': '1\n' }, 'lock me');
    const pr = await w.open('lockme');
    expect((await w.api.put(w.path(`/issues/${pr.number}/lock`), { token: w.token, body: { lock_reason: 'resolved' } })).status).toBe(204);
    const got = await w.api.get(w.path(`/pulls/${pr.number}`), { token: w.token });
    expect(got.body).toMatchObject({ is_locked: true, locked: true, active_lock_reason: 'resolved' });
  });

  it('finishes a branch update although the client disconnected right after sending it', async () => {
    await w.commitAndPush('upd', { 'upd.txt': '1\n' }, 'upd');
    const pr = await w.open('upd');
    await w.commitAndPush('main', { 'main-again.txt': '1\n' }, 'main moves on');
    const base = await w.tip('main');
    const head = await w.tip('upd');
    await new Promise<void>((resolve) => {
      const req = httpRequest(w.suite.api(w.path(`/pulls/${pr.number}/update?style=merge`)), {
        method: 'POST',
        headers: { authorization: `token ${w.token}`, 'content-length': '0' },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      // Hang up as soon as the request has been written, without waiting for any answer.
      req.on('finish', () => req.destroy());
      req.end();
    });
    const updated = await waitFor('the head branch to be updated', async () => {
      const tip = await w.tip('upd');
      return tip !== head ? tip : null;
    });
    const parents = (await w.bare('rev-list', '--parents', '-n', '1', updated)).split(' ').slice(1);
    expect(parents).toEqual([head, base]);
    const after = await waitFor('the pull request to follow its head', async () => {
      const p = await w.listed(pr.number);
      return p.head.sha === updated && p.mergeable_state !== 'checking' ? p : null;
    });
    expect(after.mergeable_state).toBe('mergeable');

    // Conflicts answer 409.
    await w.commitAndPush('upd', { 'shared.txt': 'branch\n' }, 'branch shared');
    await w.commitAndPush('main', { 'shared.txt': 'main\n' }, 'main shared');
    const conflict = await w.api.post(w.path(`/pulls/${pr.number}/update?style=rebase`), { token: w.token });
    expect(conflict.status, conflict.text).toBe(409);
  });
});

describe('pull requests (DELAY_CHECK_FOR_INACTIVE_DAYS = 0: every base-triggered check waits for a view)', () => {
  const w = new PullsWorld();
  beforeAll(() => w.start({ [DELAY_KEY]: '0' }));
  afterAll(() => w.stop());

  it('checks new pull requests at once but delays even active ones after a base push, until viewed', async () => {
    await w.commitAndPush('a', { 'a.txt': 'a\n' }, 'a');
    const pr = await w.open('a');
    expect((await w.settled(pr.number)).mergeable_state).toBe('mergeable');
    const base = await w.commitAndPush('main', { 'z.txt': 'z\n' }, 'move');
    const moved = await waitFor('the base move', async () => {
      const p = await w.listed(pr.number);
      return p.base.sha === base ? p : null;
    });
    await waitFor('an idle queue', () => w.queueIdle());
    expect(moved.mergeable_state).toBe('checking');
    expect(await w.job(moved, base)).toBeUndefined();
    expect((await w.api.get(w.path(`/pulls/${pr.number}`), { token: w.token })).status).toBe(200);
    expect((await w.settled(pr.number, base)).mergeable_state).toBe('mergeable');
  });
});

describe('pull requests (DELAY_CHECK_FOR_INACTIVE_DAYS = -1: never delayed)', () => {
  const w = new PullsWorld();
  beforeAll(() => w.start({ [DELAY_KEY]: '-1' }));
  afterAll(() => w.stop());

  it('checks even long-inactive pull requests right after a base push', async () => {
    await w.commitAndPush('old', { 'old.txt': 'o\n' }, 'old');
    const pr = await w.open('old');
    await w.settled(pr.number);
    await w.backdate([pr.number], 400);
    const base = await w.commitAndPush('main', { 'y.txt': 'y\n' }, 'move');
    const done = await w.settled(pr.number, base);
    expect(done.mergeable_state).toBe('mergeable');
    expect(await w.job(done, base)).toBeTruthy();
  });
});
