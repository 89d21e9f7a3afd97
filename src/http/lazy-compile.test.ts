import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers.js';
import { compilePending } from './lazy-compile.js';
import { buildSerializer } from './serializer.js';
import { buildValidator } from './validator.js';

describe('validators and serializers compiled on first use', () => {
  const t = useTestApp();

  it('compiles every schema of the app without an error once asked to', () => {
    // Whatever earlier apps of this process compiled is shared; at least the app's own are left.
    expect(() => compilePending()).not.toThrow();
    expect(compilePending()).toBe(0);
  });

  it('validates and reports errors on the first request of a route, and after', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: 'not-an-email', password: 1 } });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toContain('password');
    }
  });

  it('refuses an invalid schema when it is compiled: at the first request, or when every pending one is', async () => {
    const compilers = { buildValidator: buildValidator as never, buildSerializer: buildSerializer as never };
    const first = Fastify({ schemaController: { compilersFactory: compilers } });
    first.post('/bad', { schema: { body: { type: 'object', properties: { a: { type: 'nonsense' } } } } }, async () => ({}));
    await first.ready();
    const response = await first.inject({ method: 'POST', url: '/bad', payload: { a: 1 } });
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toMatch(/schema is invalid/);
    await first.close();

    // Equal schemas share one validator, so the second app's is a schema of its own.
    const second = Fastify({ schemaController: { compilersFactory: compilers } });
    second.post('/bad', { schema: { body: { type: 'object', properties: { b: { type: 'nonsense' } } } } }, async () => ({}));
    await second.ready();
    expect(() => compilePending()).toThrow(/schema is invalid/);
    expect(() => compilePending()).not.toThrow();
    await second.close();
  });

  it('answers with a serializer compiled at the first response', async () => {
    const app = Fastify({ schemaController: { compilersFactory: { buildValidator: buildValidator as never, buildSerializer: buildSerializer as never } } });
    app.get('/lazy', { schema: { response: { 200: Type.Object({ kept: Type.String() }) } } }, async () => ({ kept: 'yes', dropped: 'secret' }));
    await app.ready();
    const response = await app.inject('/lazy');
    expect(response.json()).toEqual({ kept: 'yes' });
    await app.close();
  });
});
