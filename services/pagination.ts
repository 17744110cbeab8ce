/** limit/offset of a list request. */
export interface Page {
  limit: number;
  offset: number;
}

/** The pagination object of every list answer. */
export function pageOf(total: number, page: Page) {
  return { total, limit: page.limit, offset: page.offset, has_more: page.offset + page.limit < total };
}
