/** Subjects are `<service>.<resource>.<action>` (docs/architecture.md); each domain keeps its list beside its messages. */
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
