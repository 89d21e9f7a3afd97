import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.js';

const MARK = '\u0000reusable-query-arg:';
const placeholder = (name: string | number) => `${MARK}${name}\u0000`;
const isPlaceholder = (value: unknown): value is string => typeof value === 'string' && value.startsWith(MARK);

/** Swaps each placeholder parameter of a compiled query for its value. */
function bind<Row>(compiled: CompiledQuery<Row>, valueOf: (name: string) => unknown): CompiledQuery<Row> {
  const parameters = compiled.parameters.map((value) => (isPlaceholder(value) ? valueOf(value.slice(MARK.length, -1)) : value));
  return { ...compiled, parameters };
}

/**
 * A query on a hot path, built and compiled once per database and then run with fresh arguments:
 * Kysely otherwise rebuilds and recompiles the same SQL on every request. `build` is called once
 * with placeholder strings; every bound parameter equal to a placeholder is replaced at run time.
 */
export function reusableQuery<Args extends unknown[], Row>(build: (db: Kysely<DB>, ...args: { [K in keyof Args]: string }) => Compilable<Row>) {
  const compiledFor = new WeakMap<Kysely<DB>, CompiledQuery<Row>>();
  return async (db: Kysely<DB>, ...args: Args): Promise<Row[]> => {
    let compiled = compiledFor.get(db);
    if (!compiled) {
      const placeholders = args.map((_, i) => placeholder(i)) as { [K in keyof Args]: string };
      compiled = build(db, ...placeholders).compile();
      compiledFor.set(db, compiled);
    }
    return (await db.executeQuery<Row>(bind(compiled, (name) => args[Number(name)]))).rows;
  };
}

/** Hands a builder the placeholder standing for a named value (typed as the value, for the builder's sake). */
export type Placeholder = <T>(name: string) => T;

const SHAPES_PER_QUERY = 256;

/**
 * Under the test runner every call of a shape already compiled is also built afresh and compared:
 * a `shape` that misses a choice `build` makes (a filter, a page size) would otherwise run the SQL
 * of another call, and the tests that vary the choices find it.
 */
export const verifyShapes = process.env.VITEST !== undefined;

/** Compiled queries by shape and database, bound to a call's values on the way out. */
export interface ShapeCache<Row> {
  /** The query of `shape` (compiled by `build` on first use) with `values` in place of its placeholders. */
  bound(db: Kysely<DB>, shape: string, values: Record<string, unknown>, build: (p: Placeholder) => Compilable<Row>): CompiledQuery<Row>;
}

/**
 * The cache behind `shapedQuery`, for helpers that run the bound query themselves. `shape` must
 * name every choice `build` makes; `build` must take every value through `p(name)`. A literal
 * value would be shared by every later call of the same shape, so compiling one is refused,
 * unless `constants` says the builder cannot see a call's values but through `p` (a function of
 * the module, not a closure over the request) and its literals are constants such as a status.
 */
export function shapeCache<Row>(options: { constants?: boolean } = {}): ShapeCache<Row> {
  const compiledFor = new WeakMap<Kysely<DB>, Map<string, CompiledQuery<Row>>>();
  const p: Placeholder = <T>(name: string) => placeholder(name) as unknown as T;
  return {
    bound(db, shape, values, build) {
      let shapes = compiledFor.get(db);
      if (!shapes) compiledFor.set(db, (shapes = new Map<string, CompiledQuery<Row>>()));
      let compiled = shapes.get(shape);
      if (compiled && verifyShapes && build(p).compile().sql !== compiled.sql) {
        throw new Error(`shapedQuery: shape "${shape}" names fewer choices than its query makes (the SQL differs between two calls)`);
      }
      if (!compiled) {
        compiled = build(p).compile();
        const literal = compiled.parameters.find((value) => !isPlaceholder(value));
        if (literal !== undefined && !options.constants)
          throw new Error(`shapedQuery: a literal parameter (${JSON.stringify(literal)}) would be shared by every call of shape "${shape}"`);
        if (shapes.size >= SHAPES_PER_QUERY) shapes.delete(shapes.keys().next().value as string);
        shapes.set(shape, compiled);
      }
      return bind(compiled, (name) => {
        if (!(name in values)) throw new Error(`shapedQuery: no value for "${name}" in shape "${shape}"`);
        return values[name];
      });
    },
  };
}

/** A query whose SQL depends on a few choices (which filters are set, how many ids a list has), compiled once per `shape` (see `shapeCache`). */
export function shapedQuery<Row>() {
  const shapes = shapeCache<Row>();
  return async (db: Kysely<DB>, shape: string, values: Record<string, unknown>, build: (p: Placeholder) => Compilable<Row>): Promise<Row[]> =>
    (await db.executeQuery<Row>(shapes.bound(db, shape, values, build))).rows;
}
