import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Gitea's default and maximum page sizes (`[api] DEFAULT_PAGING_NUM`, `MAX_RESPONSE_ITEMS`). */
export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 50;
/** Ids are 32-bit in the database. */
export const MAX_INT32 = 2_147_483_647;

/** As Gitea takes them: page 0 or less means 1, limit capped at {@link MAX_PAGE_SIZE} (0 or less means the default). */
export class ListQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(-MAX_INT32) @Max(MAX_INT32) page?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(-MAX_INT32) @Max(MAX_INT32) limit?: number;
}

export interface Paginated<T> {
  items: T[];
  total: number;
}

export interface Paging {
  page: number;
  limit: number;
  skip: number;
  take: number;
}

export function toPaging(query: { page?: number; limit?: number } | undefined): Paging {
  const page = Math.max(1, Math.floor(query?.page ?? 1));
  const asked = Math.floor(query?.limit ?? 0);
  const limit = asked <= 0 ? DEFAULT_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, asked);
  return { page, limit, skip: (page - 1) * limit, take: limit };
}
