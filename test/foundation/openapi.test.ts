import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers.js';

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describe('OpenAPI document and docs page', () => {
  let t: TestApp;
  let document: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };
  beforeAll(async () => {
    t = await buildTestApp();
    document = (await t.app.inject('/api/v1/openapi.json')).json();
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.1 with the five security schemes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['ApiKeyAuth', 'IntegrationApiKey', 'PbxApiKey', 'PbxServerAuth', 'bearerAuth']);
  });

  it('documents a success response schema, an operationId and error responses for every route', () => {
    const problems: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (!operation.operationId) problems.push(`${where}: no operationId`);
        const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
        if (success.length === 0) problems.push(`${where}: no success response`);
        for (const [status, response] of success) {
          // JSON for most; a download documents its media type (audio/*, text/csv ...) instead.
          if (status !== '204' && !Object.values(response.content ?? {}).some((media) => media.schema)) problems.push(`${where}: ${status} has no schema`);
        }
        if (!operation.responses['5XX']) problems.push(`${where}: no 5XX response`);
        if (operation.security?.length && !operation.responses['401']) problems.push(`${where}: secured but no 401`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(document.paths).length).toBeGreaterThan(5);
  });

  it('uses the contract error bodies', () => {
    const me = document.paths['/api/v1/me'].get;
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
});
