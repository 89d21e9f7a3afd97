import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { shapeCache, verifyShapes, type Placeholder, type ShapeCache } from './reusable-query.js';
import type { DB } from './schema.js';

/**
 * What a query built from values takes: a parameter (a string, a number, a list of them), or, for
 * booleans and the keys declared as choices, something that changes the SQL itself. `undefined`,
 * `null` and `''` mean the value is not set.
 */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/** An object of query values, keyed by name. */
export type QueryValues<V> = { [K in keyof V]: QueryValue };

const isUnset = (value: unknown) => value === undefined || value === null || value === '';

/** The shape of a call (which values are set, their choices, list lengths) and its values by placeholder name. */
function shapeOf(values: Record<string, QueryValue>, choices: ReadonlySet<string>): { shape: string; args: Record<string, unknown> } {
  let shape = '';
  let args: Record<string, unknown> = values;
  for (const key in values) {
    const value = values[key];
    if (isUnset(value)) continue;
    if (typeof value === 'boolean' || choices.has(key)) shape += `${key}=${String(value)};`;
    else if (Array.isArray(value)) {
      shape += `${key}[${value.length}];`;
      if (args === values) args = { ...values };
      (value as readonly (string | number)[]).forEach((element, i) => (args[`${key}.${i}`] = element));
    } else shape += `${key};`;
  }
  return { shape, args };
}

/** `values` as a builder sees them: `p` stands for each parameter, choices and booleans are themselves, unset values are absent. */
function viewOf<V>(values: Record<string, QueryValue>, choices: ReadonlySet<string>, p: Placeholder): V {
  const view: Record<string, unknown> = {};
  for (const key in values) {
    const value = values[key];
    if (isUnset(value)) continue;
    if (typeof value === 'boolean' || choices.has(key)) view[key] = value;
    else if (Array.isArray(value)) view[key] = value.map((_, i) => p(`${key}.${i}`));
    else view[key] = p(key);
  }
  return view as V;
}

function sameQuery(cached: CompiledQuery, fresh: CompiledQuery, shape: string): void {
  if (cached.sql !== fresh.sql || JSON.stringify(cached.parameters) !== JSON.stringify(fresh.parameters)) {
    throw new Error(`valuesQuery: shape "${shape}" runs other SQL or values than its builder writes for this call (a value it branches on is not a choice?)`);
  }
}

/**
 * Compiled queries built from an object of values, one per shape: which values are set, the
 * value of each boolean and declared choice, the length of each list, and `variant` (what the
 * caller's own choices add, such as a sort order). `build` sees the values through a view in
 * which strings, numbers and list elements are placeholders, so it must take every value from
 * there: it is a function of the module, never a closure over a request's data, and what it
 * writes as a literal (a status, a kind) is the same for every call. Under the test runner every call is also built from its real values and compared, so a
 * builder that branches on a value its shape does not name fails its tests.
 */
export function valuesQueryCache<V, Row>(choices: readonly string[] = []) {
  // Builders are functions of the module that see a call only through `v`: their literals are constants.
  const cache: ShapeCache<Row> = shapeCache<Row>({ constants: true });
  const declared = new Set(choices);
  return (db: Kysely<DB>, values: V, variant: string, build: (v: V) => Compilable<Row>): CompiledQuery<Row> => {
    const all = values as Record<string, QueryValue>;
    const { shape, args } = shapeOf(all, declared);
    const key = variant ? `${shape}|${variant}` : shape;
    const bound = cache.bound(db, key, args, (p) => build(viewOf<V>(all, declared, p)));
    if (verifyShapes) sameQuery(bound, build(viewOf<V>(all, declared, <T>(name: string) => args[name] as T)).compile(), key);
    return bound;
  };
}

/** A query built from values (see `valuesQueryCache`), run: its rows. */
export function valuesQuery<V extends QueryValues<V>, Row>(
  build: (db: Kysely<DB>, v: V) => Compilable<Row>,
  options: { choices?: readonly (keyof V & string)[] } = {},
) {
  const compiled = valuesQueryCache<V, Row>(options.choices);
  return async (db: Kysely<DB>, values: V): Promise<Row[]> => (await db.executeQuery(compiled(db, values, '', (v) => build(db, v)))).rows;
}
