/**
 * Keys naming schemas by content, for reusing what was compiled from an equal schema: Fastify
 * clones the shared schemas (`addSchema`) for every app, so equal schemas are seldom the same object.
 */

/** The schema as JSON; none (so no reuse) for one that cannot be written as JSON. */
export function schemaJson(schema: unknown): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

const ids = new Map<string, number>();
const idOfObject = new WeakMap<object, number>();
let lastId = 0;

/**
 * A short key naming the content of a plugin context's shared schemas, in order. Those are never
 * changed once added, so each object is written as JSON only once.
 */
export function sharedSchemasKey(externalSchemas: Record<string, unknown>): string {
  return Object.values(externalSchemas)
    .map((schema) => {
      const object = typeof schema === 'object' && schema !== null ? schema : undefined;
      let id = object && idOfObject.get(object);
      if (id === undefined) {
        const json = schemaJson(schema);
        if (json === undefined) id = ++lastId;
        else if ((id = ids.get(json)) === undefined) ids.set(json, (id = ++lastId));
        if (object) idOfObject.set(object, id);
      }
      return id;
    })
    .join(',');
}
