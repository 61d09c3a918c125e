import { SetMetadata } from '@nestjs/common';

export const ALSO_ANSWERS = 'cairn:alsoAnswers';

/** A handler that sets another success status itself (204 when a PUT replaced): the API description documents both. */
export const AlsoAnswers = (...statuses: number[]) => SetMetadata(ALSO_ANSWERS, statuses);
