import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateLabelRequest, EditLabelRequest, IssueIndexRequest, IssueLabelIdRequest, IssueLabelsRequest, LabelIdRequest,
  LabelSubjects, ListLabelsRequest,
  type LabelDto, type Paginated,
} from '@cairn/contracts';
import { LabelsService } from './labels.service.js';

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
