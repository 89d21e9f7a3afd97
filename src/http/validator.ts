import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const BASE_OPTIONS: Options = { allErrors: true, verbose: true, strict: false, useDefaults: true, removeAdditional: false };

/**
 * Every schema is checked against the JSON Schema meta-schema before it is used, as ajv does by
 * default; but ajv compiles the meta-schema anew in every instance, and Fastify asks for a
 * compiler (two instances here) in each encapsulated plugin context: that alone cost about 1.5 s
 * of every start-up. So the instances skip it and one checker, compiled once, does the same
 * check with the same message ("schema is invalid: ...").
 */
let checker: Ajv | undefined;
function checkSchema(schema: unknown): void {
  checker ??= new Ajv(BASE_OPTIONS);
  checker.validateSchema(schema as object, true);
}

function makeAjv(options: Options, externalSchemas: Record<string, unknown>): Ajv {
  const ajv = new Ajv({ ...BASE_OPTIONS, ...options, validateSchema: false });
  addFormats.default(ajv);
  for (const schema of Object.values(externalSchemas)) {
    const id = (schema as { $id?: string }).$id;
    if (id && !ajv.getSchema(id)) {
      checkSchema(schema);
      ajv.addSchema(schema as object, id);
    }
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
  return ({ schema, httpPart }) => {
    checkSchema(schema);
    return (httpPart === 'body' ? strict : coercing).compile(schema as object);
  };
}
