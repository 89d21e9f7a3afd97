import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { schemaJson, sharedSchemasKey } from './schema-keys.js';

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
  // Throws "schema is invalid: ..." on a bad schema; the meta-schema is synchronous, so no promise.
  const valid: unknown = checker.validateSchema(schema as object, true);
  if (valid !== true) throw new Error('schema is invalid');
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
 * Instances are made once per set of shared schemas (equal content), as Fastify's own ajv compiler
 * pools them, and each keeps what it compiled by schema content: plugin contexts with the same
 * shared schemas, routes with equal schemas and every app built in the process (the tests build a
 * hundred) reuse the validators. A validator depends only on the schema, the shared schemas and
 * the options, so it is the same as one compiled afresh.
 */
const compilers = new Map<string, FastifySchemaCompiler<unknown>>();

/**
 * Bodies are validated as sent (a string is not an integer, unknown fields are refused where a
 * schema says so); query strings, params and headers are text, so they are coerced.
 * Plugged in as Fastify's validator factory so every encapsulated plugin gets the same rules.
 */
export function buildValidator(externalSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  const key = sharedSchemasKey(externalSchemas);
  let compiler = compilers.get(key);
  if (!compiler) {
    compiler = compilerFor(externalSchemas);
    compilers.set(key, compiler);
  }
  return compiler;
}

type Validate = ReturnType<Ajv['compile']>;

function compilerFor(externalSchemas: Record<string, unknown>): FastifySchemaCompiler<unknown> {
  const instances = {
    strict: { options: { coerceTypes: false } as Options, ajv: undefined as Ajv | undefined, compiled: new Map<string, Validate>() },
    coercing: { options: { coerceTypes: 'array' } as Options, ajv: undefined as Ajv | undefined, compiled: new Map<string, Validate>() },
  };
  return ({ schema, httpPart }) => {
    const instance = httpPart === 'body' ? instances.strict : instances.coercing;
    const json = schemaJson(schema);
    const known = json === undefined ? undefined : instance.compiled.get(json);
    if (known) return known;
    checkSchema(schema);
    instance.ajv ??= makeAjv(instance.options, externalSchemas);
    // An instance keeps the schemas compiled in it by $id: another object under an $id it already
    // holds is compiled where it would have been before the reuse, in instances of its own.
    const id = (schema as { $id?: unknown }).$id;
    const holder = typeof id === 'string' ? instance.ajv.getSchema(id) : undefined;
    const ajv = holder && holder.schema !== schema ? makeAjv(instance.options, externalSchemas) : instance.ajv;
    const validate = ajv.compile(schema as object);
    if (json !== undefined) instance.compiled.set(json, validate);
    return validate;
  };
}
