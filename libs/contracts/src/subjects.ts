/**
 * Every NATS request-reply subject, grouped by the service that answers it. Subjects are `<service>.<resource>.<action>`
 * (see docs/architecture.md). They are used only through these constants; each domain keeps its own list beside its
 * messages, and this file is the one index of all of them. Each subject's request and reply types are its pair in
 * `RpcContract` (`rpc-contract.ts`, from the domains' `*.rpc.ts`).
 */
export { IdentitySubjects } from './identity/identity.subjects.js';
export { RepoSubjects } from './repo/repo.subjects.js';
export { HooksSubjects } from './hooks/hooks.subjects.js';
export { RunnersSubjects } from './runners/runners.subjects.js';
export { IssueSubjects } from './repo/issues.subjects.js';
export { LabelSubjects, MilestoneSubjects } from './repo/labels.subjects.js';
export { PullSubjects } from './repo/pulls.subjects.js';
export { ReviewSubjects } from './repo/reviews.subjects.js';
export { GitDataSubjects } from './repo/git-data.subjects.js';
export { ReleaseSubjects } from './repo/releases.subjects.js';
export { PackageApiSubjects } from './packages/package-api.subjects.js';
