import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateLabelRequest, CreateOrgLabelRequest, EditLabelRequest, EditOrgLabelRequest, IssueIndexRequest,
  IssueLabelIdRequest, IssueLabelsRequest, LabelIdRequest, LabelSubjects, ListLabelsRequest, ListOrgLabelsRequest,
  OrgLabelIdRequest,
  type LabelDto, type Paginated,
} from '@cairn/contracts';
import { LabelsService } from './labels.service.js';
import { OrgLabelsService } from './org-labels.service.js';

/** Repository labels and issue labels. */
@Controller()
export class LabelsHandler {
  constructor(private readonly labels: LabelsService) {}

  @RpcHandler(LabelSubjects.list)
  list(@Payload() req: ListLabelsRequest): Promise<Paginated<LabelDto>> {
    return this.labels.list(req);
  }

  @RpcHandler(LabelSubjects.create)
  create(@Payload() req: CreateLabelRequest): Promise<LabelDto> {
    return this.labels.create(req);
  }

  @RpcHandler(LabelSubjects.get)
  get(@Payload() req: LabelIdRequest): Promise<LabelDto> {
    return this.labels.get(req);
  }

  @RpcHandler(LabelSubjects.edit)
  edit(@Payload() req: EditLabelRequest): Promise<LabelDto> {
    return this.labels.edit(req);
  }

  @RpcHandler(LabelSubjects.delete)
  async delete(@Payload() req: LabelIdRequest): Promise<null> {
    await this.labels.delete(req);
    return null;
  }

  @RpcHandler(LabelSubjects.issueList)
  issueLabels(@Payload() req: IssueIndexRequest): Promise<LabelDto[]> {
    return this.labels.issueLabels(req);
  }

  @RpcHandler(LabelSubjects.issueAdd)
  add(@Payload() req: IssueLabelsRequest): Promise<LabelDto[]> {
    return this.labels.add(req);
  }

  @RpcHandler(LabelSubjects.issueReplace)
  replace(@Payload() req: IssueLabelsRequest): Promise<LabelDto[]> {
    return this.labels.replace(req);
  }

  @RpcHandler(LabelSubjects.issueRemove)
  async remove(@Payload() req: IssueLabelIdRequest): Promise<null> {
    await this.labels.remove(req);
    return null;
  }

  @RpcHandler(LabelSubjects.issueClear)
  async clear(@Payload() req: IssueIndexRequest): Promise<null> {
    await this.labels.clear(req);
    return null;
  }
}

/** Organization labels. */
@Controller()
export class OrgLabelsHandler {
  constructor(private readonly labels: OrgLabelsService) {}

  @RpcHandler(LabelSubjects.orgList)
  list(@Payload() req: ListOrgLabelsRequest): Promise<Paginated<LabelDto>> {
    return this.labels.list(req);
  }

  @RpcHandler(LabelSubjects.orgCreate)
  create(@Payload() req: CreateOrgLabelRequest): Promise<LabelDto> {
    return this.labels.create(req);
  }

  @RpcHandler(LabelSubjects.orgGet)
  get(@Payload() req: OrgLabelIdRequest): Promise<LabelDto> {
    return this.labels.get(req);
  }

  @RpcHandler(LabelSubjects.orgEdit)
  edit(@Payload() req: EditOrgLabelRequest): Promise<LabelDto> {
    return this.labels.edit(req);
  }

  @RpcHandler(LabelSubjects.orgDelete)
  async delete(@Payload() req: OrgLabelIdRequest): Promise<null> {
    await this.labels.delete(req);
    return null;
  }
}
