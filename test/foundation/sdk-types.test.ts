import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentDocument, generateSources, GENERATED_FILES } from '../../packages/sdk/scripts/generate.js';

/**
 * The SDK's generated files (packages/sdk/src/generated/) are what `npm run sdk:generate` writes
 * from the current OpenAPI document: a change to a route's schemas or docs without regenerating
 * fails here, so the SDK never ships types the server no longer answers.
 */
describe("the SDK's generated types", () => {
  it('match the current OpenAPI document', async () => {
    const sources = await generateSources(await currentDocument());
    for (const name of ['api', 'operations'] as const) {
      const committed = readFileSync(GENERATED_FILES[name], 'utf8');
      if (committed !== sources[name]) expect.fail(`packages/sdk/src/generated/${name}.ts is stale: run npm run sdk:generate`);
    }
  }, 60_000);
});
