import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface BenchSchema {
  schema: string;
  /** The URL to give the server: BENCH_DATABASE_URL with `options=-c search_path=<schema>`. */
  serverUrl: string;
  /** Number of tables the server created in the schema (proves search_path was honoured). */
  countTables(): Promise<number>;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Appends `options=-c search_path=<schema>` to a PostgreSQL URL (pg passes it to the server at start-up). */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  if (parsed.searchParams.has('options'))
    throw new Error('BENCH_DATABASE_URL already has an `options` parameter; remove it so the benchmark can set search_path');
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** Creates a fresh, empty schema `bench_<random>` for one benchmark run. */
export async function createBenchSchema(url: string): Promise<BenchSchema> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await withClient(url, (client) => client.query(`create schema "${schema}"`));
  return {
    schema,
    serverUrl: withSearchPath(url, schema),
    countTables: () =>
      withClient(url, async (client) => {
        const result = await client.query<{ n: string }>('select count(*) as n from information_schema.tables where table_schema = $1', [schema]);
        return Number(result.rows[0].n);
      }),
    drop: async () => {
      await withClient(url, (client) => client.query(`drop schema if exists "${schema}" cascade`));
    },
  };
}
