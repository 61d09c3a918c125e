import type { Paginated } from '../common/pagination.js';
import type { IssueIndexRequest } from './issues.dto.js';
import type {
  CreateLabelRequest, CreateMilestoneRequest, CreateOrgLabelRequest, EditOrgLabelRequest, ListOrgLabelsRequest,
  OrgLabelIdRequest, EditLabelRequest, EditMilestoneRequest, IssueLabelIdRequest,
  IssueLabelsRequest, LabelDto, LabelIdRequest, ListLabelsRequest, ListMilestonesRequest, MilestoneDto,
  MilestoneIdRequest,
} from './labels.dto.js';
import type { RpcPair } from '../rpc-contract.js';
import type { LabelSubjects, MilestoneSubjects } from './labels.subjects.js';

export interface LabelRpc {
  [LabelSubjects.list]: RpcPair<ListLabelsRequest, Paginated<LabelDto>>;
  [LabelSubjects.create]: RpcPair<CreateLabelRequest, LabelDto>;
  [LabelSubjects.get]: RpcPair<LabelIdRequest, LabelDto>;
  [LabelSubjects.edit]: RpcPair<EditLabelRequest, LabelDto>;
  [LabelSubjects.delete]: RpcPair<LabelIdRequest, null>;
  [LabelSubjects.issueList]: RpcPair<IssueIndexRequest, LabelDto[]>;
  [LabelSubjects.issueAdd]: RpcPair<IssueLabelsRequest, LabelDto[]>;
  [LabelSubjects.issueReplace]: RpcPair<IssueLabelsRequest, LabelDto[]>;
  [LabelSubjects.issueRemove]: RpcPair<IssueLabelIdRequest, null>;
  [LabelSubjects.issueClear]: RpcPair<IssueIndexRequest, null>;
  [LabelSubjects.orgList]: RpcPair<ListOrgLabelsRequest, Paginated<LabelDto>>;
  [LabelSubjects.orgCreate]: RpcPair<CreateOrgLabelRequest, LabelDto>;
  [LabelSubjects.orgGet]: RpcPair<OrgLabelIdRequest, LabelDto>;
  [LabelSubjects.orgEdit]: RpcPair<EditOrgLabelRequest, LabelDto>;
  [LabelSubjects.orgDelete]: RpcPair<OrgLabelIdRequest, null>;
  [MilestoneSubjects.list]: RpcPair<ListMilestonesRequest, Paginated<MilestoneDto>>;
  [MilestoneSubjects.create]: RpcPair<CreateMilestoneRequest, MilestoneDto>;
  [MilestoneSubjects.get]: RpcPair<MilestoneIdRequest, MilestoneDto>;
  [MilestoneSubjects.edit]: RpcPair<EditMilestoneRequest, MilestoneDto>;
  [MilestoneSubjects.delete]: RpcPair<MilestoneIdRequest, null>;
}
