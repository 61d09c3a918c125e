import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CheckTargetRequest, CreatePullRequest, EditPullRequest, GetPullByBranchesRequest, GetPullRequest,
  ListPullsRequest, PullIndexRequest, PullPageRequest, PullSubjects, ReportMergeabilityRequest,
  type ChangedFileDto, type CheckTargetReply, type CommitDto, type Paginated, type PullRequestDto,
  type ReportMergeabilityReply,
} from '@cairn/contracts';
import { MergeabilityService } from './mergeability.service.js';
import { PullsService } from './pulls.service.js';

/** Pull-request messages from the gateway, and mergeability messages from merge-check-worker. */
@Controller()
export class PullsHandler {
  constructor(
    private readonly pulls: PullsService,
    private readonly mergeability: MergeabilityService,
  ) {}

  @MessagePattern(PullSubjects.create)
  create(@Payload() req: CreatePullRequest): Promise<PullRequestDto> {
    return this.pulls.create(req);
  }

  @MessagePattern(PullSubjects.list)
  list(@Payload() req: ListPullsRequest): Promise<Paginated<PullRequestDto>> {
    return this.pulls.list(req);
  }

  @MessagePattern(PullSubjects.get)
  get(@Payload() req: GetPullRequest): Promise<PullRequestDto> {
    return this.pulls.get(req);
  }

  @MessagePattern(PullSubjects.getByBranches)
  getByBranches(@Payload() req: GetPullByBranchesRequest): Promise<PullRequestDto> {
    return this.pulls.getByBranches(req);
  }

  @MessagePattern(PullSubjects.edit)
  edit(@Payload() req: EditPullRequest): Promise<PullRequestDto> {
    return this.pulls.edit(req);
  }

  @MessagePattern(PullSubjects.commits)
  commits(@Payload() req: PullPageRequest): Promise<Paginated<CommitDto>> {
    return this.pulls.commits(req);
  }

  @MessagePattern(PullSubjects.files)
  files(@Payload() req: PullPageRequest): Promise<Paginated<ChangedFileDto>> {
    return this.pulls.files(req);
  }

  @MessagePattern(PullSubjects.isMerged)
  isMerged(@Payload() req: PullIndexRequest): Promise<boolean> {
    return this.pulls.isMerged(req);
  }

  @MessagePattern(PullSubjects.checkTarget)
  checkTarget(@Payload() req: CheckTargetRequest): Promise<CheckTargetReply | null> {
    return this.mergeability.checkTarget(req.pullId);
  }

  @MessagePattern(PullSubjects.reportMergeability)
  report(@Payload() req: ReportMergeabilityRequest): Promise<ReportMergeabilityReply> {
    return this.mergeability.report(req);
  }
}
