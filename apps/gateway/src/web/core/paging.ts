/** `?page=` as a positive page number (anything else is page 1). */
export function pageNumber(value: string | undefined): number {
  const n = value && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return Math.max(1, n);
}

export interface Pager {
  current: number;
  previous: number | null;
  next: number | null;
}

/** Previous/next links of a list page (`admin/pager.eta` renders them). */
export function pager(current: number, total: number, size: number): Pager {
  return { current, previous: current > 1 ? current - 1 : null, next: current * size < total ? current + 1 : null };
}
