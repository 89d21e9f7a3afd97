import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo-seed.js';
import { TAG_DESCRIPTIONS } from '../../src/http/openapi-document.js';
import { useTestApp } from '../helpers.js';

interface Media {
  schema?: object;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  operationId: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { description?: string; content?: Record<string, Media> }>;
}
interface Document {
  servers: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { examples?: unknown[] }> };
}

/** The docs page as a newcomer reads it: tags in the order the API is met, and examples that are real answers. */
describe('the docs page’s order and examples', () => {
  let document: Document;
  const t = useTestApp();
  beforeAll(async () => {
    document = (await t.app.inject('/api/v1/openapi.json')).json();
  });

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path}`, operation })),
    );

  it('lists the tags as a newcomer meets the API: signing in first, the directory next, the audit trail last', () => {
    const names = document.tags.map((tag) => tag.name);
    expect(names.slice(0, 3)).toEqual(['Login and identity', 'Users', 'Extensions']);
    expect(names.at(-1)).toBe('Audit trail');
    // The document's tags follow the one declared order, with nothing undeclared.
    const order = Object.keys(TAG_DESCRIPTIONS);
    expect(names).toEqual(order.filter((name) => names.includes(name)));
    const at = (name: string) => names.indexOf(name);
    expect(at('Users')).toBeLessThan(at('Call history'));
    expect(at('Call history')).toBeLessThan(at('Call flows'));
    expect(at('Call flows')).toBeLessThan(at('Configuration push'));
    expect(at('Configuration push')).toBeLessThan(at('Contacts'));
    expect(at('Contacts')).toBeLessThan(at('Workforce: companies, departments, employees'));
    expect(at('Workforce: schedules and planning')).toBeLessThan(at('Integration API keys'));
  });

  it('splits the workforce into its parts, each a tag of its own with a description', () => {
    const count = new Map<string, number>();
    for (const { operation } of operations()) for (const tag of operation.tags ?? []) count.set(tag, (count.get(tag) ?? 0) + 1);
    const workforce = document.tags.map((tag) => tag.name).filter((name) => name.startsWith('Workforce'));
    expect(workforce).not.toContain('Workforce');
    expect(workforce.length).toBeGreaterThanOrEqual(9);
    for (const name of workforce) {
      expect(TAG_DESCRIPTIONS[name], name).toBeTruthy();
      expect(count.get(name), name).toBeLessThanOrEqual(25);
    }
    // Together, contiguous on the page.
    const names = document.tags.map((tag) => tag.name);
    expect(names.slice(names.indexOf(workforce[0]), names.indexOf(workforce[0]) + workforce.length)).toEqual(workforce);
  });

  it('gives every success answer with a JSON body an example that its schema accepts', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addVocabulary(['example', 'discriminator']);
    ajv.addSchema({ $id: 'doc', components: document.components });
    const local = (schema: unknown) => JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"doc#/components')) as object;
    const missing: string[] = [];
    const refused: string[] = [];
    let checked = 0;
    for (const { at, operation } of operations())
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!status.startsWith('2')) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (!type.includes('json') || !media.schema) continue;
          const examples = [...(media.example !== undefined ? [media.example] : []), ...Object.values(media.examples ?? {}).map((e) => e.value)];
          if (examples.length === 0) {
            missing.push(`${at} ${status}`);
            continue;
          }
          const validate = ajv.compile(local(media.schema));
          for (const example of examples) {
            checked++;
            if (!validate(example)) refused.push(`${at} ${status}: ${ajv.errorsText(validate.errors)}`);
            // A page's links name the list itself, with its path's ids filled in.
            const meta = (example as { meta?: { path?: string } }).meta;
            if (meta?.path !== undefined && (meta.path.includes('{') || !meta.path.startsWith(document.servers[0].url)))
              refused.push(`${at} ${status}: meta.path ${meta.path}`);
          }
        }
      }
    expect(missing).toEqual([]);
    expect(refused).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });

  it('shows real values, never a type’s name where a value belongs', () => {
    const placeholders: string[] = [];
    const walk = (value: unknown, where: string) => {
      if (value === 'string' || value === 'date-time') placeholders.push(where);
      else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${where}[${i}]`));
      else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, `${where}.${key}`);
    };
    for (const { at, operation } of operations())
      for (const [status, response] of Object.entries(operation.responses))
        for (const media of Object.values(response.content ?? {})) if (media.example !== undefined) walk(media.example, `${at} ${status}`);
    expect(placeholders).toEqual([]);
  });

  it('signs in with the login example on the demo data, so the docs page’s Try it out works', async () => {
    await seedDemo(t.ctx);
    const example = document.paths['/login'].post.requestBody?.content?.['application/json']?.example;
    expect(example).toMatchObject({ email: 'anna.schmit@acme.example' });
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: example as object });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.token).toMatch(/^pbxu_/);
  });

  it('says what a public sign-in’s 401 means: wrong credentials, not a missing token', () => {
    const signIns = operations().filter(({ operation }) => Array.isArray(operation.security) && operation.security.length === 0 && operation.responses['401']);
    expect(signIns.map(({ at }) => at).sort()).toEqual(['GET /magic-login/{token}', 'POST /login', 'POST /passwordless/verify']);
    for (const { at, operation } of signIns) expect(operation.responses['401'].description, at).not.toMatch(/token/i);
    expect(document.paths['/login'].post.responses['401'].description).toMatch(/wrong e-mail or password/i);
    // A secured route's 401 still speaks of its token.
    expect(document.paths['/me'].get.responses['401'].description).toMatch(/token/i);
  });
});
