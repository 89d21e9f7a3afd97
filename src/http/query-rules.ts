import type { FastifyInstance, RouteOptions } from 'fastify';

/** What a route's query string declares, kept on its `propertyNames` rule for the 422's wording. */
export interface QueryKeyRules {
  /** The page-size spelling the route reads, when it is a list. */
  pageSize?: 'perPage' | 'per_page';
  /** Its `filter[key]` parameters. */
  filters: string[];
  /** Whether it declares an `include` allow-list. */
  embeds: boolean;
}

export const QUERY_RULES = 'x-query-rules';
const PAGE_SIZES = ['perPage', 'per_page'] as const;

type QuerySchema = Record<string, unknown> & { properties?: Record<string, unknown>; propertyNames?: Record<string, unknown> };

/**
 * Query keys a client may send by mistake are refused with a 422 naming them rather than ignored,
 * on every route under the API prefix, from what each route's query string declares:
 * - `include` where a read embeds nothing (the contract's rule 4: each endpoint has its own
 *   allow-list, and values outside it, here all of them, are rejected);
 * - a `filter[key]` the route does not declare (a typo would otherwise list everything);
 * - the page-size spelling the route does not read (`per_page` where it reads `perPage`, and
 *   the reverse; rule 5 spells it per list);
 * - `sort` or `search` on a list that has a fixed order or no search.
 * Other undeclared keys (a cache buster) still pass. Reads without a query string get an empty
 * one to carry the rule. Query-level keywords do not reach the OpenAPI parameters.
 */
export function registerQueryRules(app: FastifyInstance, apiPrefix: string): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(apiPrefix) || route.url.startsWith(`${apiPrefix}/docs`)) return;
    const isRead = [route.method].flat().some((method) => method === 'GET' || method === 'HEAD');
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    const declared = schema.querystring as QuerySchema | undefined;
    if (!declared && !isRead) return;
    if (declared?.propertyNames?.[QUERY_RULES]) return;
    // A new object: one query schema may serve several routes.
    schema.querystring = withKeyRules(declared ?? { type: 'object', properties: {} }, isRead);
  });
}

function withKeyRules(query: QuerySchema, isRead: boolean): QuerySchema {
  const names = Object.keys(query.properties ?? {});
  const rules: QueryKeyRules = {
    pageSize: PAGE_SIZES.find((name) => names.includes(name)),
    filters: names.filter((name) => name.startsWith('filter[')),
    embeds: names.includes('include'),
  };
  const refused: Array<Record<string, unknown>> = [];
  if (rules.pageSize) refused.push({ const: rules.pageSize === 'perPage' ? 'per_page' : 'perPage' });
  if (isRead && !rules.embeds) refused.push({ const: 'include' });
  // A list with a fixed order, or no search, would otherwise answer as if it had sorted or searched.
  if (rules.pageSize) for (const name of ['sort', 'search']) if (!names.includes(name)) refused.push({ const: name });
  refused.push(rules.filters.length ? { allOf: [{ pattern: '^filter\\[' }, { not: { enum: rules.filters } }] } : { pattern: '^filter\\[' });
  const rule = { not: { anyOf: refused }, [QUERY_RULES]: rules, ...(query.propertyNames ? { allOf: [query.propertyNames] } : {}) };
  return { ...query, propertyNames: rule };
}
