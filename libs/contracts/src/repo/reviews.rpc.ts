import type { Paginated } from '../common/pagination.js';
import type { RpcPair } from '../rpc-contract.js';
import type {
  CreatePullReviewRequest, DismissPullReviewRequest, ListPullReviewsRequest, PullReviewCommentDto, PullReviewDto,
  PullReviewIdRequest, PullReviewRequestsRequest, PullReviewSummaryDto, SubmitPullReviewRequest,
} from './reviews.dto.js';
import type { PullIndexRequest } from './pulls.dto.js';
import type { ReviewSubjects } from './reviews.subjects.js';

export interface ReviewRpc {
  [ReviewSubjects.list]: RpcPair<ListPullReviewsRequest, Paginated<PullReviewDto>>;
  [ReviewSubjects.create]: RpcPair<CreatePullReviewRequest, PullReviewDto>;
  [ReviewSubjects.get]: RpcPair<PullReviewIdRequest, PullReviewDto>;
  [ReviewSubjects.submit]: RpcPair<SubmitPullReviewRequest, PullReviewDto>;
  [ReviewSubjects.delete]: RpcPair<PullReviewIdRequest, null>;
  [ReviewSubjects.comments]: RpcPair<PullReviewIdRequest, PullReviewCommentDto[]>;
  [ReviewSubjects.dismiss]: RpcPair<DismissPullReviewRequest, PullReviewDto>;
  [ReviewSubjects.undismiss]: RpcPair<PullReviewIdRequest, PullReviewDto>;
  [ReviewSubjects.requestAdd]: RpcPair<PullReviewRequestsRequest, PullReviewDto[]>;
  [ReviewSubjects.requestRemove]: RpcPair<PullReviewRequestsRequest, null>;
  [ReviewSubjects.summary]: RpcPair<PullIndexRequest, PullReviewSummaryDto>;
}
