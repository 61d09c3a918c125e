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

/** The request is the class the answering service validates with, so the caller is held to the same shape. Type only. */
export interface RpcPair<Request, Reply> {
  request: Request;
  reply: Reply;
}

/** `RpcClient.send` and `@RpcHandler` accept only these subjects (docs/architecture.md, "The typed bus"). */
export interface RpcContract extends IdentityRpc, RepoRpc, IssueRpc, LabelRpc, PullRpc, ReviewRpc, GitDataRpc, ReleaseRpc, HooksRpc, RunnersRpc,
  PackageApiRpc,
  CommitStatusRpc {
  [subject: `${string}.health.check`]: RpcPair<HealthRequest, HealthReply>;
}

export type RpcSubject = keyof RpcContract & string;
export type RpcRequest<S extends RpcSubject> = RpcContract[S]['request'];
export type RpcReply<S extends RpcSubject> = RpcContract[S]['reply'];
