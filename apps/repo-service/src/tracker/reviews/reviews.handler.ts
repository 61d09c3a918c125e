import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreatePullReviewRequest, DismissPullReviewRequest, ListPullReviewsRequest, PullReviewIdRequest,
  PullIndexRequest, PullReviewRequestsRequest, ReviewSubjects, SubmitPullReviewRequest,
  type Paginated, type PullReviewCommentDto, type PullReviewDto, type PullReviewSummaryDto,
} from '@cairn/contracts';
import { ReviewsService } from './reviews.service.js';

/** Review and review-request messages from the gateway. */
@Controller()
export class ReviewsHandler {
  constructor(private readonly reviews: ReviewsService) {}

  @RpcHandler(ReviewSubjects.summary)
  summary(@Payload() req: PullIndexRequest): Promise<PullReviewSummaryDto> {
    return this.reviews.summary(req);
  }

  @RpcHandler(ReviewSubjects.list)
  list(@Payload() req: ListPullReviewsRequest): Promise<Paginated<PullReviewDto>> {
    return this.reviews.list(req);
  }

  @RpcHandler(ReviewSubjects.create)
  create(@Payload() req: CreatePullReviewRequest): Promise<PullReviewDto> {
    return this.reviews.create(req);
  }

  @RpcHandler(ReviewSubjects.get)
  get(@Payload() req: PullReviewIdRequest): Promise<PullReviewDto> {
    return this.reviews.get(req);
  }

  @RpcHandler(ReviewSubjects.submit)
  submit(@Payload() req: SubmitPullReviewRequest): Promise<PullReviewDto> {
    return this.reviews.submitPending(req);
  }

  @RpcHandler(ReviewSubjects.delete)
  delete(@Payload() req: PullReviewIdRequest): Promise<null> {
    return this.reviews.delete(req);
  }

  @RpcHandler(ReviewSubjects.comments)
  comments(@Payload() req: PullReviewIdRequest): Promise<PullReviewCommentDto[]> {
    return this.reviews.comments(req);
  }

  @RpcHandler(ReviewSubjects.dismiss)
  dismiss(@Payload() req: DismissPullReviewRequest): Promise<PullReviewDto> {
    return this.reviews.dismiss(req);
  }

  @RpcHandler(ReviewSubjects.undismiss)
  undismiss(@Payload() req: PullReviewIdRequest): Promise<PullReviewDto> {
    return this.reviews.undismiss(req);
  }

  @RpcHandler(ReviewSubjects.requestAdd)
  requestAdd(@Payload() req: PullReviewRequestsRequest): Promise<PullReviewDto[]> {
    return this.reviews.requestAdd(req);
  }

  @RpcHandler(ReviewSubjects.requestRemove)
  requestRemove(@Payload() req: PullReviewRequestsRequest): Promise<null> {
    return this.reviews.requestRemove(req);
  }
}
