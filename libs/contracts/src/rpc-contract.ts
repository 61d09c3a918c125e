import type { HealthReply, HealthRequest } from './common/health.js';
import type { HooksRpc } from './hooks/hooks.rpc.js';
import type { IdentityRpc } from './identity/identity.rpc.js';
import type { CommitStatusRpc } from './repo/commit-statuses.rpc.js';
import type { IssueRpc } from './repo/issues.rpc.js';
import type { LabelRpc } from './repo/labels.rpc.js';
import type { PullRpc } from './repo/pulls.rpc.js';
import type { GitDataRpc } from './repo/git-data.rpc.js';
import type { ReleaseRpc } from './repo/releases.rpc.js';
import type { RepoRpc } from './repo/repo.rpc.js';
import type { ReviewRpc } from './repo/reviews.rpc.js';
import type { RunnersRpc } from './runners/runners.rpc.js';
import type { PackageApiRpc } from './packages/package-api.rpc.js';

/**
 * One request-reply pair of the bus: what the caller sends (the class the answering service validates with, so the
 * caller is held to the same shape) and what it gets back. Only a type: nothing of it exists at run time.
 */
export interface RpcPair<Request, Reply> {
  request: Request;
  reply: Reply;
}

/**
 * Every request-reply subject and its pair, joined from the domains' `<domain>.rpc.ts`: `RpcClient.send` and
 * `@RpcHandler` accept only these, so a wrong payload or reply does not compile (docs/architecture.md, "The typed bus").
 */
export interface RpcContract extends IdentityRpc, RepoRpc, IssueRpc, LabelRpc, PullRpc, ReviewRpc, GitDataRpc, ReleaseRpc, HooksRpc, RunnersRpc,
  PackageApiRpc,
  CommitStatusRpc {
  /** Every service's `<service>.health.check` ({@link healthSubject}). */
  [subject: `${string}.health.check`]: RpcPair<HealthRequest, HealthReply>;
}

/** A subject that has a request-reply pair. */
export type RpcSubject = keyof RpcContract & string;
/** What a caller sends on `S`. */
export type RpcRequest<S extends RpcSubject> = RpcContract[S]['request'];
/** What the service behind `S` replies. */
export type RpcReply<S extends RpcSubject> = RpcContract[S]['reply'];
