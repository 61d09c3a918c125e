/** The highest page number a web list accepts (deeper pages are page 1: nobody pages that far by hand). */
export const MAX_PAGE = 100_000;

/** `?page=` as a positive page number; anything else is page 1. The one home of paging for every web page. */
export function pageOf(query: { page?: string | undefined }): number {
  const n = Number(query.page);
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAGE ? n : 1;
}

export interface Pager {
  current: number;
  previous: number | null;
  next: number | null;
}

export function pager(current: number, total: number, size: number): Pager {
  return { current, previous: current > 1 ? current - 1 : null, next: current * size < total ? current + 1 : null };
}
