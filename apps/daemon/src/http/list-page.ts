import { LIST_DEFAULT_LIMIT, LIST_MAX_DEPTH } from '@aerie/daemon/fs/list-limits';
import { HttpError } from '@aerie/daemon/http-kit/http-errors';

export const INVALID_PAGE_MESSAGE = `The page and per_page parameters must be whole numbers from 1, per_page at most ${LIST_DEFAULT_LIMIT} and page × per_page at most ${LIST_MAX_DEPTH}.`;

/** `?page=&per_page=` of `GET …/files/list-directory`, as the listing's offset and limit. */
export interface ListPageQuery {
  page?: string;
  per_page?: string;
}

const WHOLE = /^[1-9]\d{0,5}$/;

/**
 * Neither parameter: the first LIST_DEFAULT_LIMIT entries (Wings' plain array, capped). `per_page` alone is page 1;
 * `page` alone has LIST_DEFAULT_LIMIT entries a page. Pages reach LIST_MAX_DEPTH entries deep at most.
 * @throws HttpError 400 for anything else
 */
export function listPage(query: ListPageQuery): { offset: number; limit: number } {
  const { page = '1', per_page: perPage = String(LIST_DEFAULT_LIMIT) } = query;
  if (!WHOLE.test(page) || !WHOLE.test(perPage)) throw new HttpError(400, INVALID_PAGE_MESSAGE);
  const limit = Number(perPage);
  const offset = (Number(page) - 1) * limit;
  if (limit > LIST_DEFAULT_LIMIT || offset + limit > LIST_MAX_DEPTH) {
    throw new HttpError(400, INVALID_PAGE_MESSAGE);
  }
  return { offset, limit };
}
