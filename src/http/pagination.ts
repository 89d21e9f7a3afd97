import { Type, type TSchema } from '@sinclair/typebox';
import { Nullable } from './schema.js';
import type { PageRequest } from '../db/paging.js';

/** Laravel's length-aware paginator envelope, the shape the contract gives under user companies. */
export const Paginated = <T extends TSchema>(item: T, options: { $id?: string; description?: string } = {}) =>
  Type.Object(
    {
      data: Type.Array(item),
      links: Type.Object({ first: Type.String(), last: Type.String(), prev: Nullable(Type.String()), next: Nullable(Type.String()) }),
      meta: Type.Object({
        current_page: Type.Integer({ minimum: 1 }),
        from: Nullable(Type.Integer()),
        last_page: Type.Integer({ minimum: 1 }),
        links: Type.Array(Type.Object({ url: Nullable(Type.String()), label: Type.String(), active: Type.Boolean() })),
        path: Type.String(),
        per_page: Type.Integer(),
        to: Nullable(Type.Integer()),
        total: Type.Integer({ minimum: 0 }),
      }),
    },
    options,
  );

export interface PageEnvelope<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: Array<{ url: string | null; label: string; active: boolean }>;
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

/** Window of page links either side of the current page, as Laravel renders them. */
const ON_EACH_SIDE = 3;

/**
 * Builds the envelope for one page. `path` is the absolute endpoint URL; `query` the request's
 * query string pairs, kept on every link except `page`.
 */
export function paginate<T>(
  items: T[],
  total: number,
  page: PageRequest,
  path: string,
  query: Record<string, unknown>,
  /** Links to the neighbouring pages other than by number (a keyset list's cursors). */
  neighbours?: { prev: string | null; next: string | null },
): PageEnvelope<T> {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  // The other parameters are encoded once; each link appends its page (as URLSearchParams would, last).
  const others = new URLSearchParams(linkParams(query)).toString();
  const prefix = `${path}?${others}${others ? '&' : ''}page=`;
  const url = (n: number) => `${prefix}${n}`;
  const prev = neighbours ? neighbours.prev : page.page > 1 ? url(Math.min(page.page - 1, lastPage)) : null;
  const next = neighbours ? neighbours.next : page.page < lastPage ? url(page.page + 1) : null;
  const links: PageEnvelope<T>['meta']['links'] = [{ url: prev, label: '&laquo; Previous', active: false }];
  for (const n of pageWindow(page.page, lastPage)) {
    links.push(n === null ? { url: null, label: '...', active: false } : { url: url(n), label: String(n), active: n === page.page });
  }
  links.push({ url: next, label: 'Next &raquo;', active: false });
  const from = items.length ? page.offset + 1 : null;
  return {
    data: items,
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: page.page,
      from,
      last_page: lastPage,
      links,
      path,
      per_page: page.perPage,
      to: from === null ? null : page.offset + items.length,
      total,
    },
  };
}

/** Page numbers to show, with null for an ellipsis: 1 2 ... 7 8 [9] 10 11 ... 19 20. */
function pageWindow(current: number, last: number): Array<number | null> {
  const window = ON_EACH_SIDE * 2;
  if (last < window + 6) return range(1, last);
  if (current <= window) return [...range(1, window + 2), null, last - 1, last];
  if (current > last - window) return [1, 2, null, ...range(last - (window + 2) + 1, last)];
  return [1, 2, null, ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), null, last - 1, last];
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** The request's query as the parameters of a link to another page: every value as text, `page` left to the link. */
export function linkParams(query: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (key !== 'page' && value !== undefined && value !== null) params[key] = linkValue(value);
  return params;
}

/** A query value as it goes back into a link: what the query-string parser made of it, as text. */
function linkValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(linkValue).join(',');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? '';
}
