import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { schemaJson, sharedSchemasKey } from './schema-keys.js';
import { once } from './lazy-compile.js';

const BASE_OPTIONS: Options = { allErrors: true, verbose: true, strict: false, useDefaults: true, removeAdditional: false, discriminator: true };

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

/** The JSON pointer of a string holding U+0000 in a value (walked without recursion, however deep), or null. */
export function nulPointer(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [item, pointer] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return pointer;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${pointer}/${i}`]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item).reverse()) stack.push([child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
    }
  }
  return null;
}

/**
 * No text the API takes may hold U+0000: PostgreSQL cannot store it in text (a 500 there, while
 * SQLite kept it), and no PBX field means it. Checked once the schema holds, as an ajv error of
 * its own (keyword `nul`), so the 422 names the field like any other.
 */
function refusingNul(validate: Validate): Validate {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const pointer = nulPointer(data);
    checked.errors = pointer === null ? null : [{ keyword: 'nul', instancePath: pointer, schemaPath: '#', params: {}, message: 'must not contain U+0000' }];
    return pointer === null;
  }) as Validate;
  return checked;
}

/** A validator compiled at its first call (see lazy-compile.ts), reporting the compiled one's errors. */
function lazily(compile: () => Validate): Validate {
  const compiled = once(compile);
  const validate = ((data: unknown) => {
    const real = compiled();
    const valid = real(data);
    validate.errors = real.errors;
    return valid;
  }) as Validate;
  return validate;
}

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
    const validate = lazily(() => {
      checkSchema(schema);
      instance.ajv ??= makeAjv(instance.options, externalSchemas);
      // An instance keeps the schemas compiled in it by $id: another object under an $id it already
      // holds is compiled in an instance of its own.
      const id = (schema as { $id?: unknown }).$id;
      const holder = typeof id === 'string' ? instance.ajv.getSchema(id) : undefined;
      const ajv = holder && holder.schema !== schema ? makeAjv(instance.options, externalSchemas) : instance.ajv;
      return refusingNul(ajv.compile(schema as object));
    });
    if (json !== undefined) instance.compiled.set(json, validate);
    return validate;
  };
}
