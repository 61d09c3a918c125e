/** Labels, issue labels and milestones, served by repo-service. */
export const LabelSubjects = {
  /** A repository's labels. */
  list: 'repo.label.list',
  /** Create a label (write access). */
  create: 'repo.label.create',
  /** One label. */
  get: 'repo.label.get',
  /** Edit a label (write access). */
  edit: 'repo.label.edit',
  /** Delete a label (write access). */
  delete: 'repo.label.delete',
  /** An issue's labels. */
  issueList: 'repo.issue-label.list',
  /** Add labels to an issue (write access); replies all its labels. */
  issueAdd: 'repo.issue-label.add',
  /** Replace an issue's labels (write access). */
  issueReplace: 'repo.issue-label.replace',
  /** Remove one label from an issue (write access). */
  issueRemove: 'repo.issue-label.remove',
  /** Remove every label from an issue (write access). */
  issueClear: 'repo.issue-label.clear',
  /** An organization's labels (visible organization). */
  orgList: 'repo.org-label.list',
  /** Create an organization label (its owners). */
  orgCreate: 'repo.org-label.create',
  /** One organization label. */
  orgGet: 'repo.org-label.get',
  /** Edit an organization label (its owners). */
  orgEdit: 'repo.org-label.edit',
  /** Delete an organization label (its owners; it leaves every issue). */
  orgDelete: 'repo.org-label.delete',
} as const;

export const MilestoneSubjects = {
  /** A repository's milestones. */
  list: 'repo.milestone.list',
  /** Create a milestone (write access). */
  create: 'repo.milestone.create',
  /** One milestone by id or title. */
  get: 'repo.milestone.get',
  /** Edit a milestone (write access). */
  edit: 'repo.milestone.edit',
  /** Delete a milestone (write access; its issues keep no milestone). */
  delete: 'repo.milestone.delete',
} as const;
