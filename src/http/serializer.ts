import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySerializerCompiler } from 'fastify';
import { schemaJson, sharedSchemasKey } from './schema-keys.js';
import { once } from './lazy-compile.js';

type Serializer = (data: unknown) => string;
type SerializerFactory = (externalSchemas: Record<string, unknown>, serializerOpts?: unknown) => FastifySerializerCompiler<unknown>;

// Fastify's default response serializer compiler (fast-json-stringify): the same package Fastify
// depends on, so the production bundle holds one copy of it.
const defaultFactory = SerializerSelector() as unknown as SerializerFactory;

/**
 * Fastify's default serializers, compiled once per schema: every route documents the same error
 * responses (401, 403, 404, 422, 429, 5XX), so of the ~1,100 response schemas of an app only ~220
 * differ, and every app built in the process (the tests build a hundred) has the same ones. A
 * serializer depends only on the schema, the shared schemas it may refer to and the serializer
 * options; equal ones make the same key. The generated code is the same as without the reuse
 * (checked route by route with fast-json-stringify's standalone output over the test suite).
 */
const serializers = new Map<string, Map<string, Serializer>>();

export function buildSerializer(externalSchemas: Record<string, unknown>, serializerOpts?: unknown): FastifySerializerCompiler<unknown> {
  // Fastify's compiler drops a schema's own $id from the shared schemas once it has compiled it
  // (so it is not defined twice); the same happens here, and the dropped ids are part of the key.
  let shared = externalSchemas;
  const context = `${JSON.stringify(serializerOpts ?? null)}|${sharedSchemasKey(externalSchemas)}`;
  const dropped: string[] = [];
  return (route) => {
    const key = `${context}|${dropped.join(',')}`;
    let compiled = serializers.get(key);
    if (!compiled) serializers.set(key, (compiled = new Map<string, Serializer>()));
    const json = schemaJson(route.schema);
    let serializer = json === undefined ? undefined : compiled.get(json);
    if (!serializer) {
      // Compiled at its first use (see lazy-compile.ts), against the shared schemas of this moment.
      const sharedNow = shared;
      const real = once(() => defaultFactory(sharedNow, serializerOpts)(route) as Serializer);
      serializer = (data) => real()(data);
      if (json !== undefined) compiled.set(json, serializer);
    }
    const id = (route.schema as { $id?: unknown }).$id;
    if (typeof id === 'string' && shared[id]) {
      shared = { ...shared };
      delete shared[id];
      dropped.push(id);
      dropped.sort();
    }
    return serializer;
  };
}
