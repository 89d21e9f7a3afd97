import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function makeAjv(options: Options, externalSchemas: Record<string, unknown>): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  addFormats.default(ajv);
  for (const schema of Object.values(externalSchemas)) {
    const id = (schema as { $id?: string }).$id;
    if (id && !ajv.getSchema(id)) ajv.addSchema(schema as object, id);
  }
  return ajv;
}

/**
 * Bodies are validated as sent (a string is not an integer, unknown fields are refused where a
 * schema says so); query strings, params and headers are text, so they are coerced.
 * Plugged in as Fastify's validator factory so every encapsulated plugin gets the same rules.
 */
export function buildValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  const strict = makeAjv({ coerceTypes: false }, externalSchemas);
  const coercing = makeAjv({ coerceTypes: 'array' }, externalSchemas);
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
