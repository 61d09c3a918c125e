import { SetMetadata } from '@nestjs/common';

/** Metadata key of {@link AlsoAnswers} (read by the route table for the API description). */
export const ALSO_ANSWERS = 'cairn:alsoAnswers';

/**
 * A route whose handler answers another success status than its `@HttpCode()` on some outcomes (it sets the status
 * itself, e.g. 204 when a PUT replaced instead of created): the API description documents both.
 */
export const AlsoAnswers = (...statuses: number[]) => SetMetadata(ALSO_ANSWERS, statuses);
