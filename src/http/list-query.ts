import { Type, type Static, type TInteger, type TObject, type TOptional, type TProperties, type TSchema, type TString } from '@sinclair/typebox';
import type { PageRequest, SortTerm } from '../db/paging.js';
import { IncludeParam } from './include.js';

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 100;
const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The contract spells the page size `perPage` in most places and `per_page` on some lists. */
export type PageSizeName = 'perPage' | 'per_page';

export interface ListQueryOptions {
  /** Sortable fields (`-field` sorts descending). */
  sort?: readonly string[];
  /** `filter[key]` parameters with their schemas. */
  filters?: Record<string, TSchema>;
  include?: readonly string[];
  pageSize?: PageSizeName;
  search?: boolean;
  extra?: TProperties;
}

type PageSizeOf<O extends ListQueryOptions> = O['pageSize'] extends 'per_page' ? 'per_page' : 'perPage';
type Present<O, K extends keyof ListQueryOptions, T extends TProperties> = O extends Required<Pick<ListQueryOptions, K>> ? T : unknown;
type FilterProperties<F> = { [K in keyof F & string as `filter[${K}]`]: TOptional<F[K] & TSchema> };

/** The properties `ListQuery(options)` declares, so that `Static<>` of a list schema names exactly them. */
export type ListQueryProperties<O extends ListQueryOptions> = { page: TOptional<TInteger> } & {
  [K in PageSizeOf<O>]: TOptional<TInteger>;
} & (O['search'] extends false ? unknown : { search: TOptional<TString> }) &
  Present<O, 'sort', { sort: TOptional<TString> }> &
  Present<O, 'include', { include: TOptional<TString> }> &
  (O extends { filters: infer F } ? FilterProperties<F> : unknown) &
  (O extends { extra: infer E extends TProperties } ? E : unknown);

const PAGE_SIZE = Symbol('pageSizeName');

/** A list endpoint's querystring schema; it remembers which page-size name it declares. */
export type ListQuerySchema<O extends ListQueryOptions = ListQueryOptions> = TObject<ListQueryProperties<O>> & { readonly [PAGE_SIZE]: PageSizeOf<O> };

/**
 * The querystring schema of a list endpoint: search, sort, page, page size, filters, include.
 * The page-size spelling it does not declare is refused (422) like other keys it does not take
 * (query-rules.ts), and never read.
 */
export function ListQuery<const O extends ListQueryOptions>(options: O): ListQuerySchema<O> {
  const pageSize = (options.pageSize ?? 'perPage') as PageSizeOf<O>;
  const properties: TProperties = {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page number, from 1.' })),
    [pageSize]: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `Page size, 1-${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` }),
    ),
  };
  if (options.search !== false) properties.search = Type.Optional(Type.String({ maxLength: 255, description: 'Free-text search.' }));
  if (options.sort?.length) {
    const values = options.sort.flatMap((field) => [field, `-${field}`]);
    const one = `(-?(${options.sort.map(escape).join('|')}))`;
    properties.sort = Type.Optional(
      Type.String({
        pattern: `^${one}(,${one})*$`,
        description: `Sort fields, comma-separated; prefix - for descending. Allowed: ${options.sort.join(', ')}.`,
        'x-allowed': values,
      }),
    );
  }
  for (const [key, schema] of Object.entries(options.filters ?? {})) properties[`filter[${key}]`] = Type.Optional(schema);
  if (options.include?.length) properties.include = IncludeParam(options.include);
  Object.assign(properties, options.extra ?? {});
  const schema = Type.Object(properties);
  return Object.assign(schema, { [PAGE_SIZE]: pageSize }) as unknown as ListQuerySchema<O>;
}

export function parseSort(raw: string | undefined, fallback: SortTerm[]): SortTerm[] {
  if (!raw) return fallback;
  return raw.split(',').map((term) => (term.startsWith('-') ? { field: term.slice(1), direction: 'desc' } : { field: term, direction: 'asc' }));
}

/** The page asked for, read from the page-size name the list declares (and no other). */
export function pageRequest<O extends ListQueryOptions>(schema: ListQuerySchema<O>, query: Static<ListQuerySchema<O>>): PageRequest {
  const values = query as { page?: number } & Partial<Record<PageSizeName, number>>;
  const page = values.page ?? 1;
  const perPage = values[schema[PAGE_SIZE]] ?? DEFAULT_PAGE_SIZE;
  return { page, perPage, offset: (page - 1) * perPage };
}

/** A page request from plain numbers, for lists whose parameters are not a ListQuery (and tests). */
export function pageOf(page = 1, perPage = DEFAULT_PAGE_SIZE): PageRequest {
  return { page, perPage, offset: (page - 1) * perPage };
}
