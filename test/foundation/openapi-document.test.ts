import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { TAG_DESCRIPTIONS } from '../../src/http/openapi-document.js';
import { buildTestApp, useTestApp } from '../helpers.js';

interface Response {
  description?: string;
  headers?: Record<string, { $ref: string }>;
}
interface Document {
  info: { contact?: { name: string } };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, Response> }>>;
  components: { headers: Record<string, unknown> };
}

describe('the OpenAPI document as a product', () => {
  let document: Document;
  const t = useTestApp();
  beforeAll(async () => {
    document = (await t.app.inject('/api/v1/openapi.json')).json();
  });

  const responses = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) =>
        Object.entries(operation.responses).map(([status, response]) => ({ at: `${method} ${path} ${status}`, status, response })),
      ),
    );

  it('is the same document however many apps this process built: no route lends its answers to another', async () => {
    const again = await buildTestApp();
    try {
      expect((await again.app.inject('/api/v1/openapi.json')).json()).toEqual(document);
    } finally {
      await again.close();
    }
    // The push and the rollback share their answers' declaration; only the rollback names a version.
    expect(Object.keys(document.paths['/pbx/configuration/push'].post.responses)).not.toContain('404');
    expect(Object.keys(document.paths['/pbx/configuration/versions/{version}/rollback'].post.responses)).toContain('404');
  });

  it('describes every response by what it means, not "Default Response"', () => {
    const generic = responses().filter(({ response }) => !response.description || ['Default Response', 'Client error'].includes(response.description));
    expect(generic.map((r) => r.at)).toEqual([]);
  });

  it('declares the headers every answer carries, Retry-After on 429 and Content-Range on 206', () => {
    for (const { at, status, response } of responses()) {
      expect(Object.keys(response.headers ?? {}), at).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-Request-Id']));
      if (status === '429') expect(response.headers, at).toHaveProperty('Retry-After');
      if (status === '206') expect(response.headers, at).toHaveProperty('Content-Range');
      for (const header of Object.values(response.headers ?? {})) expect(document.components.headers).toHaveProperty(header.$ref.split('/').pop()!);
    }
    expect(document.paths['/calls/new'].post.responses['200'].headers).toHaveProperty('Idempotent-Replayed');
  });

  it('lists every tag with what it holds, and a contact', () => {
    const used = new Set(Object.values(document.paths).flatMap((methods) => Object.values(methods).flatMap((operation) => operation.tags ?? [])));
    expect(document.tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of document.tags) expect(tag.description, tag.name).toBe(TAG_DESCRIPTIONS[tag.name]);
    expect(document.info.contact?.name).toBeTruthy();
  });

  it('gives every JSON request body an example that its schema accepts', () => {
    type Media = { schema?: { $ref?: string }; example?: unknown; examples?: Record<string, { value: unknown }> };
    const full = document as unknown as {
      components: Record<string, unknown>;
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, Media> } }>>;
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addVocabulary(['example', 'discriminator']);
    ajv.addSchema({ $id: 'doc', components: full.components });
    const local = (schema: unknown) => JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"doc#/components')) as object;
    const missing: string[] = [];
    const refused: string[] = [];
    for (const [path, methods] of Object.entries(full.paths))
      for (const [method, operation] of Object.entries(methods)) {
        const media = operation.requestBody?.content?.['application/json'];
        const schema = media?.schema;
        if (!media || !schema) continue;
        // The generator moves a body schema's examples onto its media type; a referenced schema keeps its own.
        const target = (schema.$ref ? (full.components.schemas as Record<string, { examples?: unknown[] }>)[schema.$ref.split('/').pop()!] : schema) as {
          examples?: unknown[];
        };
        const examples = [
          ...(target.examples ?? []),
          ...(media.example !== undefined ? [media.example] : []),
          ...Object.values(media.examples ?? {}).map((e) => e.value),
        ];
        if (examples.length === 0) {
          missing.push(`${method} ${path}`);
          continue;
        }
        const validate = ajv.compile(local(schema));
        for (const example of examples) if (!validate(example)) refused.push(`${method} ${path}: ${ajv.errorsText(validate.errors)}`);
      }
    expect(missing).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('generates a typed client that compiles (openapi-typescript), so a broken document fails here', async () => {
    const source = astToString(await openapiTS(document as never));
    const dir = mkdtempSync(join(tmpdir(), 'pbx-api-client-'));
    writeFileSync(join(dir, 'api.d.ts'), source);
    // What a client would write: the types of a list's items and of an error body resolve.
    writeFileSync(
      join(dir, 'client.ts'),
      [
        "import type { paths, components } from './api.js';",
        "type NumberList = paths['/phone-numbers']['get']['responses']['200']['content']['application/json'];",
        'export const first = (list: NumberList): string | undefined => list.data[0]?.number;',
        "type Flow = components['schemas']['CallFlow'];",
        'export const entry = (flow: Flow): string => flow.entry;',
        "type Invalid = paths['/ivrs']['post']['responses']['422']['content']['application/json'];",
        'export const errors = (body: Invalid): Record<string, string[]> => body.errors;',
      ].join('\n'),
    );
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: false,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
