import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CheckTargetRequest, CreatePullRequest, EditPullRequest, GetPullByBranchesRequest, GetPullRequest,
  ListPullsRequest, PullHeadRequest, PullIndexRequest, PullPageRequest, PullSubjects, ReportMergeabilityRequest,
  type ChangedFileDto, type CheckTargetReply, type CommitDto, type Paginated, type PullRequestDto,
  type PullHeadReply, type ReportMergeabilityReply,
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

  @RpcHandler(PullSubjects.create)
  create(@Payload() req: CreatePullRequest): Promise<PullRequestDto> {
    return this.pulls.create(req);
  }

  @RpcHandler(PullSubjects.list)
  list(@Payload() req: ListPullsRequest): Promise<Paginated<PullRequestDto>> {
    return this.pulls.list(req);
  }

  @RpcHandler(PullSubjects.get)
  get(@Payload() req: GetPullRequest): Promise<PullRequestDto> {
    return this.pulls.get(req);
  }

  @RpcHandler(PullSubjects.headCommit)
  headCommit(@Payload() req: PullHeadRequest): Promise<PullHeadReply> {
    return this.pulls.headCommit(req);
  }

  @RpcHandler(PullSubjects.getByBranches)
  getByBranches(@Payload() req: GetPullByBranchesRequest): Promise<PullRequestDto> {
    return this.pulls.getByBranches(req);
  }

  @RpcHandler(PullSubjects.edit)
  edit(@Payload() req: EditPullRequest): Promise<PullRequestDto> {
    return this.pulls.edit(req);
  }

  @RpcHandler(PullSubjects.commits)
  commits(@Payload() req: PullPageRequest): Promise<Paginated<CommitDto>> {
    return this.pulls.commits(req);
  }

  @RpcHandler(PullSubjects.files)
  files(@Payload() req: PullPageRequest): Promise<Paginated<ChangedFileDto>> {
    return this.pulls.files(req);
  }

  @RpcHandler(PullSubjects.isMerged)
  isMerged(@Payload() req: PullIndexRequest): Promise<boolean> {
    return this.pulls.isMerged(req);
  }

  @RpcHandler(PullSubjects.checkTarget)
  checkTarget(@Payload() req: CheckTargetRequest): Promise<CheckTargetReply | null> {
    return this.mergeability.checkTarget(req.pullId);
  }

  @RpcHandler(PullSubjects.reportMergeability)
  report(@Payload() req: ReportMergeabilityRequest): Promise<ReportMergeabilityReply> {
    return this.mergeability.report(req);
  }
}
