import { Injectable } from '@nestjs/common';
import {
  ABBREVIATED_OBJECT_ID_PATTERN, DomainError, NOT_SIGNED_VERIFICATION, isValidRefOrSha,
  type AnnotatedTagDto, type GetBlobReply, type GetBlobRequest, type GetTreeRequest, type GitBlobResponseDto, type GitEntryDto,
  type GitObjectRequest, type GitTreeResponseDto, type ListGitRefsRequest, type ReferenceDto,
} from '@cairn/contracts';
import { listRefs, listTree, parseTagObject } from '@cairn/git';
import { base64Length, INLINE_CONTENT_BUDGET } from '../contents/contents.service.js';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { CommitVerifier } from '../../git-core/signatures/commit-verifier.js';
import { toReferenceDto } from './git-data.mapper.js';

/** Gitea answers 400 (not 404) for an object id that names nothing usable in these routes. */
const badSha = (sha: string) => DomainError.invalid(`sha not found [${sha}]`);

/** Ids and refs are validated before git sees them, and reach it only as cat-file stdin or after `--end-of-options`. */
@Injectable()
export class GitDataService {
  constructor(
    private readonly git: GitReadContext,
    private readonly verifier: CommitVerifier,
  ) {}

  async refs(req: ListGitRefsRequest): Promise<ReferenceDto[]> {
    if (req.repo.empty) return [];
    const prefix = req.filter ? `refs/${req.filter}` : '';
    const api = this.git.apiUrl(req.repo);
    return (await listRefs(this.git.pathOf(req.repo)))
      .filter((r) => r.ref.startsWith(prefix))
      .map((r) => toReferenceDto(r.ref, r.oid, r.type, api));
  }

  async annotatedTag(req: GitObjectRequest): Promise<AnnotatedTagDto> {
    if (!ABBREVIATED_OBJECT_ID_PATTERN.test(req.sha)) throw badSha(req.sha);
    const dir = this.git.pathOf(req.repo);
    const [tag, commit] = await this.git.pool.run(dir, [
      { op: 'contents', object: req.sha.toLowerCase() },
      { op: 'info', object: `${req.sha.toLowerCase()}^{commit}` },
    ]);
    if (tag?.type !== 'tag' || !tag.data || !commit) throw DomainError.invalid(`tag not found [${req.sha}]`);
    const parsed = parseTagObject(tag.data);
    const api = this.git.apiUrl(req.repo);
    const verification = (await this.verifier.verifyCommits(req.repo, [commit.oid])).get(commit.oid);
    return {
      tag: parsed.tag,
      sha: tag.oid,
      url: `${api}/git/tags/${tag.oid}`,
      message: parsed.message,
      tagger: parsed.tagger,
      object: { type: 'commit', url: `${api}/git/commits/${commit.oid}`, sha: commit.oid },
      verification: verification ?? { ...NOT_SIGNED_VERIFICATION },
    };
  }

  /** By tree id, commit id or ref (a commit's own id is the answer's `sha`, as Gitea's `ResolvedID`), paged. */
  async tree(req: GetTreeRequest): Promise<GitTreeResponseDto> {
    if (!isValidRefOrSha(req.sha)) throw badSha(req.sha);
    const dir = this.git.pathOf(req.repo);
    const name = ABBREVIATED_OBJECT_ID_PATTERN.test(req.sha) ? req.sha.toLowerCase() : req.sha;
    const [asCommit, asTree] = await this.git.pool.run(dir, [
      { op: 'info', object: `${name}^{commit}` },
      { op: 'info', object: `${name}^{tree}` },
    ]);
    if (!asTree) throw badSha(req.sha);
    const sha = asCommit?.oid ?? asTree.oid;
    const records = await listTree(dir, asTree.oid, req.recursive === true);
    const api = this.git.apiUrl(req.repo);
    const page = Math.max(1, req.page);
    const start = req.perPage * (page - 1);
    const answer: GitTreeResponseDto = { sha, url: `${api}/git/trees/${sha}`, tree: [], truncated: false, page, total_count: records.length };
    if (start >= records.length) return answer;
    const end = Math.min(start + req.perPage, records.length);
    answer.truncated = end < records.length;
    answer.tree = records.slice(start, end).map(({ path, mode, type, oid, size }): GitEntryDto => {
      const url = type === 'tree' ? `${api}/git/trees/${oid}` : type === 'blob' ? `${api}/git/blobs/${oid}` : '';
      return { path, mode: mode.padStart(6, '0'), type, size: size ?? 0, sha: oid, url };
    });
    return answer;
  }

  /** Content up to `DEFAULT_MAX_BLOB_SIZE` (null beyond, as Gitea); too large for a bus message: `deferred`. */
  async blob(req: GetBlobRequest): Promise<GetBlobReply> {
    if (!ABBREVIATED_OBJECT_ID_PATTERN.test(req.sha)) throw badSha(req.sha);
    const dir = this.git.pathOf(req.repo);
    const info = await this.git.pool.one(dir, { op: 'info', object: req.sha.toLowerCase() });
    if (info?.type !== 'blob') throw badSha(req.sha);
    const answer: GitBlobResponseDto = {
      content: null, encoding: null, url: `${this.git.apiUrl(req.repo)}/git/blobs/${info.oid}`, sha: info.oid, size: info.size,
    };
    if (info.size > req.maxBlobSize) return { blob: answer };
    if (base64Length(info.size) > INLINE_CONTENT_BUDGET) return { blob: answer, deferred: true };
    const blob = await this.git.pool.one(dir, { op: 'contents', object: info.oid });
    if (!blob?.data) throw badSha(req.sha);
    return { blob: { ...answer, content: blob.data.toString('base64'), encoding: 'base64' } };
  }
}
