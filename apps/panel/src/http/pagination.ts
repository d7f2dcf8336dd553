import type { Pagination } from '@aerie/shared/servers/server-wire';
import type { FastifyRequest } from 'fastify';

/**
 * Fractal's pagination meta. Links are absolute, keep the request's query string with `page` replaced, and
 * exist only for neighbours (previous when past page 1, next when before the last page); none is `[]`.
 */
export function presentPagination(
  request: FastifyRequest,
  page: { total: number; count: number; perPage: number; currentPage: number },
): { pagination: Pagination } {
  const totalPages = Math.max(1, Math.ceil(page.total / page.perPage));
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const linkTo = (target: number) => {
    url.searchParams.set('page', String(target));
    return url.toString();
  };
  const links: { previous?: string; next?: string } = {};
  if (page.currentPage > 1) links.previous = linkTo(page.currentPage - 1);
  if (page.currentPage < totalPages) links.next = linkTo(page.currentPage + 1);
  return {
    pagination: {
      total: page.total,
      count: page.count,
      per_page: page.perPage,
      current_page: page.currentPage,
      total_pages: totalPages,
      links: Object.keys(links).length > 0 ? links : [],
    },
  };
}
