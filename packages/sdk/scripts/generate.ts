/**
 * `npm run sdk:generate`: writes the SDK's types (src/generated/api.ts) from the OpenAPI document
 * the server builds, with openapi-typescript. test/foundation/sdk-types.test.ts generates them the
 * same way in memory and fails when the committed file differs.
 *
 * The document is built from one fixed configuration (the defaults, not this shell's environment),
 * since its examples and some descriptions name settings (BASE_URL in the list examples' links, the
 * rate limits): the same sources always give the same file. openapi-typescript 7 reads the
 * document's `openapi: 3.2.0` as it is (nothing is converted).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3, type SchemaObject } from 'openapi-typescript';
import ts from 'typescript';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { openDatabase } from '../../../src/db/database.js';

export const GENERATED_FILES = {
  api: fileURLToPath(new URL('../src/generated/api.ts', import.meta.url)),
  operations: fileURLToPath(new URL('../src/generated/operations.ts', import.meta.url)),
};

const HEADER = [
  '/**',
  ' * The pbx-api OpenAPI document as TypeScript types (openapi-typescript). Generated: do not edit;',
  ' * run `npm run sdk:generate` after changing the API.',
  ' */',
  '',
].join('\n');

/** The OpenAPI document as the server serves it, under the default configuration. */
export async function currentDocument(): Promise<OpenAPI3> {
  const config = loadConfig({ NODE_ENV: 'development' });
  const database = openDatabase({ sqlitePath: ':memory:' });
  const app = await buildApp({
    config: { ...config, redisUrl: null, jobWorkerEnabled: false, amiEventsEnabled: false },
    database,
    logger: false,
  });
  try {
    await app.ready();
    return app.swagger() as OpenAPI3;
  } finally {
    await app.close();
    await database.close();
  }
}

const BLOB = ts.factory.createTypeReferenceNode('Blob');

/**
 * The POST operations that take an Idempotency-Key (every create, and the POSTs the server makes
 * safe to retry: placing a call, a push, a rollback, an approval, ...): those whose parameters name
 * the header, inline or through components.parameters. The SDK sends them one.
 */
function keyedPosts(document: OpenAPI3): string[] {
  type Parameter = { $ref?: string; name?: string; in?: string };
  const shared = (document.components?.parameters ?? {}) as Record<string, Parameter>;
  const isKey = (parameter: Parameter) => {
    const resolved = parameter.$ref ? shared[parameter.$ref.split('/').pop()!] : parameter;
    return resolved?.in === 'header' && resolved.name?.toLowerCase() === 'idempotency-key';
  };
  return Object.entries(document.paths ?? {})
    .filter(([, item]) => ((item as { post?: { parameters?: Parameter[] } }).post?.parameters ?? []).some(isKey))
    .map(([path]) => path)
    .sort();
}

/** The texts of src/generated/ for a document: its types, and what the client needs at run time. */
export async function generateSources(document: OpenAPI3): Promise<{ api: string; operations: string }> {
  // Files (format: binary) are Blobs: a File or a Blob is what an upload sends.
  const transform = (schema: SchemaObject) => (schema.format === 'binary' ? BLOB : undefined);
  const api = HEADER + astToString(await openapiTS(document, { transform }));
  const operations =
    HEADER +
    '/** POST paths that take an Idempotency-Key (every create, and the other POSTs safe to retry): the client sends them one. */\n' +
    `export const KEYED_POSTS: ReadonlySet<string> = new Set(${JSON.stringify(keyedPosts(document), null, 2)});\n`;
  return { api, operations };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sources = await generateSources(await currentDocument());
  for (const name of ['api', 'operations'] as const) {
    writeFileSync(GENERATED_FILES[name], sources[name]);
    process.stdout.write(`wrote ${GENERATED_FILES[name]} (${sources[name].length} characters)\n`);
  }
}
