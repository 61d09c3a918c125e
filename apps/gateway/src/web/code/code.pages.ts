import { DomainError, ReleaseSubjects, RepoSubjects, type CreateReleaseBody, type ReleaseDto } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { contentDisposition } from '../../routes/repo-content/send-raw.js';
import { InternalRawClient } from '../../routes/repo-content/internal-raw.client.js';
import { AttachmentUploader } from '../../routes/repos/attachment-upload.js';
import { readMultipartForm } from '../core/multipart-form.js';
import { answered, isMultipart, page, redirect, requireSignIn, type PageContext, type WebKit } from '../core/web-kit.js';
import { isRefKind } from '../repo/ref-path.js';
import { RepoViews, siteOf } from '../repo/repo-views.js';
import { formRejection } from '../settings/form-error.js';
import { requireWrite } from '../repo/write-forms.js';
import { CodeViews, releaseUrl, toReleaseRow } from './code-views.js';

interface RepoParams {
  owner: string;
  repo: string;
}
interface RestParams extends RepoParams {
  '*': string;
}
interface RefParams extends RestParams {
  kind: string;
}
type Query = Record<string, string | undefined>;

const RELEASE_FORM_FILES = 8;

function pageOf(q: Query): number {
  const n = Number(q.page);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

const checked = (value: string | undefined) => value === 'on' || value === 'true';

function createBody(form: Readonly<Record<string, string>>): CreateReleaseBody {
  const tag = (form.tag_name ?? '').trim();
  if (!tag) throw DomainError.invalid('tag name is required');
  return {
    tag_name: tag,
    target_commitish: form.tag_target?.trim() || undefined,
    name: form.title?.trim() ?? '',
    body: form.content ?? '',
    draft: checked(form.draft),
    prerelease: checked(form.prerelease),
  };
}

/** Branches, tags, releases (docs/web-code.md): every read and write is the API's subject in the visitor's context. */
export function registerCodePages(web: WebKit): void {
  const repos = new RepoViews(web.rpc);
  const views = new CodeViews(web.rpc, repos);
  const internal = new InternalRawClient(web.deps.common);
  const uploader = new AttachmentUploader(web.deps.common);
  const access = (c: PageContext<RepoParams, unknown>, unit: 'code' | 'releases') =>
    web.repoAccess(c, c.params.owner, c.params.repo, unit);

  web.get<RepoParams, Query>('/:owner/:repo/branches', async (c) => {
    const view = await views.branches(await access(c, 'code'), pageOf(c.query));
    return page('code/branches', `Branches · ${view.header.fullName}`, view);
  });

  web.post<RepoParams, Query>('/:owner/:repo/branches/delete', async (c) => {
    const ctx = await access(c, 'code');
    requireWrite(ctx, RepoSubjects.branchDelete);
    const name = (c.form.name ?? c.query.name ?? '').trim();
    if (!name) throw DomainError.invalid('which branch? (name)');
    await web.rpc.send(RepoSubjects.branchDelete, { ...ctx, branch: name });
    await c.flash('success', `Branch "${name}" has been deleted.`);
    return redirect(`${siteOf(ctx).base}/branches`);
  });

  web.get<RefParams>('/:owner/:repo/blame/:kind/*', async (c) => {
    const ctx = await access(c, 'code');
    if (!isRefKind(c.params.kind) || ctx.repo.empty) throw DomainError.notFound('no such page');
    const at = await repos.rawTarget(ctx, c.params.kind, c.params['*']);
    if (!at.path) throw DomainError.notFound('no such file');
    const view = await views.blame(ctx, at.kind, at.ref, at.path);
    return page('code/blame', `Blame ${at.path} · ${view.header.fullName}`, view);
  });

  // Gitea's archive URLs (`/archive/{ref}.zip`, `.tar.gz`): the ref resolved like the API resolves it, then
  // `git archive` of that commit streamed from repo-service.
  web.get<RestParams>('/:owner/:repo/archive/*', async (c) => {
    const ctx = await access(c, 'code');
    const rest = c.params['*'];
    const format = rest.endsWith('.tar.gz') ? 'tar.gz' : rest.endsWith('.zip') ? 'zip' : null;
    const ref = format ? rest.slice(0, -(format.length + 1)) : '';
    if (!format || !ref || ctx.repo.empty) throw DomainError.notFound('no such archive');
    const commit = await web.rpc.send(RepoSubjects.commitGet, { ...ctx, sha: ref, options: { stat: false, verification: false, files: false } });
    const upstream = await internal.openArchive(ctx.repo, commit.sha, format);
    const name = `${ctx.repo.name}-${ref.replace(/\//g, '-')}.${format}`;
    await c.reply
      .header('content-type', format === 'zip' ? 'application/zip' : 'application/gzip')
      .header('content-disposition', contentDisposition('attachment', name))
      .send(upstream);
    return answered();
  });

  web.get<RepoParams, Query>('/:owner/:repo/tags', async (c) => {
    const view = await views.tags(await access(c, 'code'), pageOf(c.query));
    return page('code/tags', `Tags · ${view.header.fullName}`, view);
  });

  web.get<RepoParams, Query>('/:owner/:repo/releases', async (c) => {
    const view = await views.releases(await access(c, 'releases'), pageOf(c.query));
    return page('code/releases', `Releases · ${view.header.fullName}`, { ...view, single: false });
  });

  web.get<RestParams>('/:owner/:repo/releases/tag/*', async (c) => {
    const view = await views.release(await access(c, 'releases'), c.params['*']);
    return page('code/releases', `${view.releases[0].title} · ${view.header.fullName}`, { ...view, single: true });
  });

  const releaseForm = async (ctx: RepoContext, values: Record<string, string>, release: ReleaseDto | null, error = '', status = 200) => {
    const header = await views.header(ctx);
    const base = siteOf(ctx).base;
    const row = release ? toReleaseRow(base, release) : null;
    return page('code/release-form', `${release ? 'Edit' : 'New'} release · ${header.fullName}`, {
      header,
      values,
      error,
      release: row,
      action: row ? row.editUrl : `${base}/releases/new`,
      defaultBranch: ctx.repo.defaultBranch,
    }, status);
  };

  web.get<RepoParams, Query>('/:owner/:repo/releases/new', async (c) => {
    requireSignIn(c);
    const ctx = await access(c, 'releases');
    requireWrite(ctx, ReleaseSubjects.create);
    return releaseForm(ctx, { tag_name: c.query.tag ?? '', tag_target: ctx.repo.defaultBranch }, null);
  });

  // The form's fields come first, its files after: the release is created when the first file arrives (or at the
  // end), each attachment is then streamed to repo-service as it is uploaded, as the API's upload does.
  web.post<RepoParams>('/:owner/:repo/releases/new', async (c) => {
    const actor = requireSignIn(c);
    const ctx = await access(c, 'releases');
    requireWrite(ctx, ReleaseSubjects.create);
    let created: ReleaseDto | null = null;
    const create = async (fields: Readonly<Record<string, string>>) => {
      created ??= await web.rpc.send(ReleaseSubjects.create, { ...ctx, body: createBody(fields) });
      return created;
    };
    let fields: Record<string, string> = c.form;
    try {
      if (isMultipart(c.req)) {
        fields = await readMultipartForm(c, { fileBytes: uploader.partLimitBytes, files: RELEASE_FORM_FILES }, async (file, sent) => {
          fields = sent; // what the form shows again if the release is refused
          if (file.field !== 'attachment') return void file.stream.resume();
          const release = await create(sent);
          const target = { repo: ctx.repo, releaseId: release.id, actorId: actor.id, access: ctx.access, name: undefined };
          await uploader.uploadPart(target, file.name, file.stream);
        });
      }
      const release = await create(fields);
      return redirect(releaseUrl(siteOf(ctx).base, release.tag_name));
    } catch (err) {
      const done = created as ReleaseDto | null;
      if (done) {
        // The release exists; an attachment was refused (too large, a bad name): say so on the release's page.
        await c.flash('error', `The release was created, but an attachment was not stored: ${err instanceof Error ? err.message : String(err)}`);
        return redirect(releaseUrl(siteOf(ctx).base, done.tag_name));
      }
      const { error, status } = formRejection(err);
      return releaseForm(ctx, fields, null, error, status);
    }
  }, { multipart: true });

  web.get<RestParams>('/:owner/:repo/releases/edit/*', async (c) => {
    requireSignIn(c);
    const ctx = await access(c, 'releases');
    requireWrite(ctx, ReleaseSubjects.edit);
    const release = await web.rpc.send(ReleaseSubjects.getByTag, { ...ctx, tag: c.params['*'] });
    const values = {
      tag_name: release.tag_name, title: release.name, content: release.body,
      draft: release.draft ? 'on' : '', prerelease: release.prerelease ? 'on' : '',
    };
    return releaseForm(ctx, values, release);
  });

  web.post<RestParams>('/:owner/:repo/releases/edit/*', async (c) => {
    requireSignIn(c);
    const ctx = await access(c, 'releases');
    requireWrite(ctx, ReleaseSubjects.edit);
    const release = await web.rpc.send(ReleaseSubjects.getByTag, { ...ctx, tag: c.params['*'] });
    try {
      const edited = await web.rpc.send(ReleaseSubjects.edit, {
        ...ctx,
        id: release.id,
        body: {
          name: c.form.title ?? '', body: c.form.content ?? '', draft: checked(c.form.draft), prerelease: checked(c.form.prerelease),
        },
      });
      await c.flash('success', 'The release has been updated.');
      return redirect(releaseUrl(siteOf(ctx).base, edited.tag_name));
    } catch (err) {
      const { error, status } = formRejection(err);
      return releaseForm(ctx, { ...c.form, tag_name: release.tag_name }, release, error, status);
    }
  });

  web.post<RepoParams>('/:owner/:repo/releases/delete', async (c) => {
    requireSignIn(c);
    const ctx = await access(c, 'releases');
    requireWrite(ctx, ReleaseSubjects.delete);
    const id = Number(c.form.id);
    if (!Number.isInteger(id) || id < 1) throw DomainError.invalid('which release? (id)');
    await web.rpc.send(ReleaseSubjects.delete, { ...ctx, id });
    await c.flash('success', 'The release has been deleted; its tag stays.');
    return redirect(`${siteOf(ctx).base}/releases`);
  });
}
