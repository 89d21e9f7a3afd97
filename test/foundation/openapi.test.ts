import { loadConfig } from '../../src/config.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../helpers.js';
import { createUser } from '../factories.js';

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Array<{ name: string }>;
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** Errors the sign-in endpoints answer though they are public (wrong credentials, a disabled account). */
const SIGN_IN_ERRORS: Record<string, string[]> = {
  'post /login': ['401', '403'],
  'get /magic-login/{token}': ['401', '403', '404'],
  'post /passwordless/verify': ['401', '403'],
};
/** Public requests for a link or a code answer alike whether or not the address has an account: never 401 or 403. */
const SAME_FOR_EVERY_ADDRESS = ['post /magic-link', 'post /passwordless/login', 'post /passwordless/resend'];

describe('OpenAPI document and docs page', () => {
  let document: {
    openapi: string;
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  const t = useTestApp();
  beforeAll(async () => {
    document = (await t.app.inject('/api/v1/openapi.json')).json();
  });

  it('is OpenAPI 3.2.0, as the contract describes it, with the five security schemes', () => {
    expect(document.openapi).toBe('3.2.0');
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['ApiKeyAuth', 'IntegrationApiKey', 'PbxApiKey', 'PbxServerAuth', 'bearerAuth']);
  });

  it('documents a success response schema, an operationId and error responses for every route', () => {
    const problems: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (!operation.operationId) problems.push(`${where}: no operationId`);
        // A WebSocket's success is its upgrade, 101.
        const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2') || status === '101');
        if (success.length === 0) problems.push(`${where}: no success response`);
        for (const [status, response] of success) {
          // JSON for most; a download documents its media type (audio/*, text/csv ...) instead; 204 and 101 have no body.
          if (status !== '204' && status !== '101' && !Object.values(response.content ?? {}).some((media) => media.schema))
            problems.push(`${where}: ${status} has no schema`);
        }
        if (!operation.responses['5XX']) problems.push(`${where}: no 5XX response`);
        if (operation.security?.length && !operation.responses['401']) problems.push(`${where}: secured but no 401`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(document.paths).length).toBeGreaterThan(5);
  });

  it('names the server by the contract base URL, ending in /api/v1, and the paths below it', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: 'http://pbx.test/api/v1' })]);
    expect(Object.keys(document.paths)).toContain('/login');
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/api/'))).toEqual([]);
  });

  it('lists the deployments API_SERVERS names after this server, which comes first', async () => {
    const listed = await buildTestApp({
      env: {
        BASE_URL: 'https://staging.pbx.test/api/v1',
        API_SERVERS: 'production=https://pbx.test/api/v1, staging=https://staging.pbx.test/api/v1/,development=http://127.0.0.1:8080/api/v1',
      },
    });
    try {
      expect((await listed.app.inject('/api/v1/openapi.json')).json().servers).toEqual([
        { url: 'https://staging.pbx.test/api/v1', name: 'staging', description: 'staging (this server)' },
        { url: 'https://pbx.test/api/v1', name: 'production', description: 'production' },
        { url: 'http://127.0.0.1:8080/api/v1', name: 'development', description: 'development' },
      ]);
    } finally {
      await listed.close();
    }
  });

  it('refuses an API_SERVERS entry without a name, off /api/v1 or named twice, saying which', () => {
    expect(() => loadConfig({ API_SERVERS: 'https://pbx.test/api/v1' })).toThrow('API_SERVERS: "https://pbx.test/api/v1" has no name');
    expect(() => loadConfig({ API_SERVERS: 'production=https://pbx.test/api' })).toThrow(
      'the address of "production" must be an absolute http(s) URL ending in /api/v1',
    );
    expect(() => loadConfig({ API_SERVERS: 'production=ftp://pbx.test/api/v1' })).toThrow('must be an absolute http(s) URL');
    expect(() => loadConfig({ API_SERVERS: 'a=https://a.test/api/v1,a=https://b.test/api/v1' })).toThrow('"a" is named twice');
    expect(loadConfig({}).apiServers).toEqual([]);
  });

  it('documents the errors each operation can answer: 401/403 when secured, 404 with a path id, 422 with input, 429 always', () => {
    const PRECONDITIONS = ['If-Match', 'If-None-Match'];
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const expected = ['429', ...(SIGN_IN_ERRORS[`${method} ${path}`] ?? [])];
        if (operation.security?.length) expected.push('401', '403');
        if (path.includes('{')) expected.push('404');
        // A precondition (If-Match, If-None-Match) is never invalid input: it holds or it does not (412, 304).
        const input = operation.parameters?.filter((parameter) => !PRECONDITIONS.includes(parameter.name));
        if (input?.length || operation.requestBody) expected.push('422');
        for (const status of expected) if (!operation.responses[status]) missing.push(`${method.toUpperCase()} ${path}: ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents what the sign-in endpoints really answer', async () => {
    const user = await createUser(t.ctx);
    const disabled = await createUser(t.ctx, { fields: { status: 'disabled' } });
    const answers: Array<[string, string, Promise<{ statusCode: number }>]> = [
      ['post', '/login', t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: user.email, password: 'wrong-password' } })],
      ['post', '/login', t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: disabled.email, password: disabled.password } })],
      ['get', '/magic-login/{token}', t.app.inject({ method: 'GET', url: '/api/v1/magic-login/no-such-token' })],
      ['post', '/passwordless/verify', t.app.inject({ method: 'POST', url: '/api/v1/passwordless/verify', payload: { email: user.email, code: '000000' } })],
    ];
    for (const [method, path, pending] of answers) {
      const { statusCode } = await pending;
      expect(statusCode, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(Object.keys(document.paths[path][method].responses), `${method} ${path} answered ${statusCode}`).toContain(String(statusCode));
    }
  });

  it('documents no 401 or 403 for asking a link or a code, which answer alike for every address', async () => {
    for (const operation of SAME_FOR_EVERY_ADDRESS) {
      const [method, path] = operation.split(' ');
      expect(Object.keys(document.paths[path][method].responses), operation).not.toContain('401');
      expect(Object.keys(document.paths[path][method].responses), operation).not.toContain('403');
    }
    const unknown = await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/login', payload: { email: 'nobody@example.test' } });
    expect(Object.keys(document.paths['/passwordless/login'].post.responses)).toContain(String(unknown.statusCode));
  });

  it('uses the contract error bodies', () => {
    const me = document.paths['/me'].get;
    expect(me.security).toEqual([{ bearerAuth: [] }]);
    expect(JSON.stringify(me.responses['401'])).toContain('#/components/schemas/UnauthorizedError');
    const schemas = (document.components as unknown as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas;
    expect(Object.keys(schemas.UnauthorizedError.properties)).toEqual(['error']);
    expect(Object.keys(schemas.ValidationError.properties)).toEqual(['message', 'errors']);
  });

  it('serves the docs page', async () => {
    let response = await t.app.inject('/api/v1/docs');
    for (let hops = 0; response.statusCode === 302 && hops < 3; hops++) {
      const location = String(response.headers.location);
      response = await t.app.inject(location.startsWith('/') ? location : `/api/v1/docs/${location.replace(/^\.\//, '')}`);
    }
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger-ui');
  });

  it('leads from the server root and the API address to the docs and the document, without a token', async () => {
    const root = await t.app.inject('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/api/v1/docs');
    for (const url of ['/api/v1', '/api/v1/']) {
      const index = await t.app.inject(url);
      expect(index.statusCode, url).toBe(200);
      expect(index.json(), url).toEqual({
        name: 'pbx-api',
        version: '0.1.0',
        docs: `${document.servers[0].url}/docs`,
        openapi: `${document.servers[0].url}/openapi.json`,
        asyncapi: `${document.servers[0].url}/asyncapi.json`,
      });
    }
  });
});
