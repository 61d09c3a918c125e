/**
 * NATS request-reply subjects for labels, issue labels and milestones, served by repo-service. Every request is a
 * `RepoScopedRequest` (actor, resolved repository, access) plus the fields named.
 */
export const LabelSubjects = {
  /** A repository's labels: `ListLabelsRequest` → `Paginated<LabelDto>`. */
  list: 'repo.label.list',
  /** Create a label (write access): `CreateLabelRequest` → `LabelDto`. */
  create: 'repo.label.create',
  /** One label: `LabelIdRequest` → `LabelDto`. */
  get: 'repo.label.get',
  /** Edit a label (write access): `EditLabelRequest` → `LabelDto`. */
  edit: 'repo.label.edit',
  /** Delete a label (write access): `LabelIdRequest` → `null`. */
  delete: 'repo.label.delete',
  /** An issue's labels: `IssueIndexRequest` → `LabelDto[]`. */
  issueList: 'repo.issue-label.list',
  /** Add labels to an issue (write access): `IssueLabelsRequest` → `LabelDto[]` (all its labels). */
  issueAdd: 'repo.issue-label.add',
  /** Replace an issue's labels (write access): `IssueLabelsRequest` → `LabelDto[]`. */
  issueReplace: 'repo.issue-label.replace',
  /** Remove one label from an issue (write access): `IssueLabelIdRequest` → `null`. */
  issueRemove: 'repo.issue-label.remove',
  /** Remove every label from an issue (write access): `IssueIndexRequest` → `null`. */
  issueClear: 'repo.issue-label.clear',
  /** An organization's labels (visible organization): `ListOrgLabelsRequest` → `Paginated<LabelDto>`. */
  orgList: 'repo.org-label.list',
  /** Create an organization label (its owners): `CreateOrgLabelRequest` → `LabelDto`. */
  orgCreate: 'repo.org-label.create',
  /** One organization label: `OrgLabelIdRequest` → `LabelDto`. */
  orgGet: 'repo.org-label.get',
  /** Edit an organization label (its owners): `EditOrgLabelRequest` → `LabelDto`. */
  orgEdit: 'repo.org-label.edit',
  /** Delete an organization label (its owners; it leaves every issue): `OrgLabelIdRequest` → `null`. */
  orgDelete: 'repo.org-label.delete',
} as const;

export const MilestoneSubjects = {
  /** A repository's milestones: `ListMilestonesRequest` → `Paginated<MilestoneDto>`. */
  list: 'repo.milestone.list',
  /** Create a milestone (write access): `CreateMilestoneRequest` → `MilestoneDto`. */
  create: 'repo.milestone.create',
  /** One milestone by id or title: `MilestoneIdRequest` → `MilestoneDto`. */
  get: 'repo.milestone.get',
  /** Edit a milestone (write access): `EditMilestoneRequest` → `MilestoneDto`. */
  edit: 'repo.milestone.edit',
  /** Delete a milestone (write access; its issues keep no milestone): `MilestoneIdRequest` → `null`. */
  delete: 'repo.milestone.delete',
} as const;
