import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.js';

const placeholder = (index: number) => `\u0000reusable-query-arg-${index}\u0000`;

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
    const parameters = compiled.parameters.map((value) => {
      if (typeof value !== 'string' || !value.startsWith('\u0000reusable-query-arg-')) return value;
      return args[Number(value.slice(20, -1))];
    });
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}
