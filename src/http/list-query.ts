import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import type { PageRequest, SortTerm } from '../db/paging.js';
import { IncludeParam } from './include.js';

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 100;
const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface ListQueryOptions {
  /** Sortable fields (`-field` sorts descending). */
  sort?: readonly string[];
  /** `filter[key]` parameters with their schemas. */
  filters?: Record<string, TSchema>;
  include?: readonly string[];
  /** The contract spells the page size `perPage` in most places and `per_page` on some lists. */
  pageSize?: 'perPage' | 'per_page';
  search?: boolean;
  extra?: TProperties;
}

/** The querystring schema of a list endpoint: search, sort, page, page size, filters, include. */
export function ListQuery(options: ListQueryOptions) {
  const properties: TProperties = {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page number, from 1.' })),
    [options.pageSize ?? 'perPage']: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `Page size, 1-${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` }),
    ),
  };
  if (options.search !== false) properties.search = Type.Optional(Type.String({ maxLength: 255, description: 'Free-text search.' }));
  if (options.sort?.length) {
    const values = options.sort.flatMap((field) => [field, `-${field}`]);
    const one = `(-?(${options.sort.map(escape).join('|')}))`;
    properties.sort = Type.Optional(
      Type.String({ pattern: `^${one}(,${one})*$`, description: `Sort fields, comma-separated; prefix - for descending. Allowed: ${options.sort.join(', ')}.`, 'x-allowed': values }),
    );
  }
  for (const [key, schema] of Object.entries(options.filters ?? {})) properties[`filter[${key}]`] = Type.Optional(schema);
  if (options.include?.length) properties.include = IncludeParam(options.include);
  Object.assign(properties, options.extra ?? {});
  return Type.Object(properties);
}

export function parseSort(raw: string | undefined, fallback: SortTerm[]): SortTerm[] {
  if (!raw) return fallback;
  return raw.split(',').map((term) => (term.startsWith('-') ? { field: term.slice(1), direction: 'desc' } : { field: term, direction: 'asc' }));
}

export function pageRequest(query: { page?: number; perPage?: number; per_page?: number }): PageRequest {
  const page = query.page ?? 1;
  const perPage = query.perPage ?? query.per_page ?? DEFAULT_PAGE_SIZE;
  return { page, perPage, offset: (page - 1) * perPage };
}
