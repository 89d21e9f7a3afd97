import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestApp, useTestApp } from '../../../test/helpers.js';
import { createAdmin, createTenant } from '../../../test/factories.js';

interface Operation {
  requestBody?: unknown;
}

/** Every operation under a path that names its PBX, from the OpenAPI document (so new ones are checked too). */
async function pbxOperations(t: TestApp): Promise<Array<{ method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; hasBody: boolean }>> {
  const document = (await t.app.inject('/api/v1/openapi.json')).json<{ paths: Record<string, Record<string, Operation>> }>();
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/{pbx_id}/'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        path,
        hasBody: operation.requestBody !== undefined,
      })),
    );
}

/** The path with its PBX and any other id filled in. */
const fill = (path: string, pbxId: string, id: string) => path.replace('{pbx_id}', pbxId).replace(/\{[^}]+\}/g, id);

describe('every path naming its PBX', () => {
  let operations: Awaited<ReturnType<typeof pbxOperations>>;
  const t = useTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  beforeAll(async () => {
    operations = await pbxOperations(t);
  });

  const send = (method: string, url: string, token: string | null, payload?: object) =>
    t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

  it('finds the workforce operations', () => {
    const paths = new Set(operations.map((operation) => operation.path));
    for (const path of ['/{pbx_id}/companies/{company}/restore', '/{pbx_id}/departments/{department}', '/{pbx_id}/employees', '/{pbx_id}/workforce-settings']) {
      expect(paths).toContain(path);
    }
  });

  it('answers 401 {error} without a token, 403 for another PBX before anything is looked up, 422 for a malformed id', async () => {
    const admin = await createAdmin(t.ctx);
    const stranger = await createTenant(t.ctx);
    for (const { method, path, hasBody } of operations) {
      const where = `${method} ${path}`;
      const anonymous = await send(method, fill(path, admin.pbxId, randomUUID()), null, hasBody ? {} : undefined);
      expect(anonymous.statusCode, where).toBe(401);
      expect(anonymous.json(), where).toEqual({ error: expect.any(String) });

      // The PBX is checked before the input is validated: a malformed id and an invalid body change nothing.
      const foreign = await send(method, fill(path, stranger.pbxId, 'not-a-uuid'), admin.token, hasBody ? { unknown_field: [] } : undefined);
      expect(foreign.statusCode, where).toBe(403);
      expect(foreign.json(), where).toEqual({ message: 'You have no access to this PBX.' });

      const id = path.match(/\{(?!pbx_id)[^}]+\}/)?.[0];
      if (id) {
        const malformed = await send(method, fill(path, admin.pbxId, 'not-a-uuid'), admin.token, hasBody ? {} : undefined);
        expect(malformed.statusCode, where).toBe(422);
        expect(Object.keys(malformed.json().errors), where).toContain(id.slice(1, -1));
      }
    }
  });
});
