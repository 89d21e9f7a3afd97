/**
 * Validators and serializers are compiled on a route's first use instead of at start-up: ajv and
 * fast-json-stringify compiling every route's schemas was most of the server's start (about
 * 0.6 s of CPU and its garbage), while a process seldom serves more than a fraction of ~190
 * operations soon after starting. Checking a schema against the JSON Schema meta-schema happens
 * then too (compiling the meta-schema alone is ~70 ms of a start). `compilePending()` compiles
 * everything left, so a test proves every schema of the app is valid and compiles.
 */
const pending = new Set<() => unknown>();

/** `compile` runs once, at the first call of the returned thunk or at `compilePending()`. */
export function once<T>(compile: () => T): () => T {
  let compiled: { value: T } | undefined;
  const get = () => {
    if (!compiled) {
      // Tried once, it is no longer pending: a failure is thrown to the caller (and again at the next call).
      pending.delete(get);
      compiled = { value: compile() };
    }
    return compiled.value;
  };
  pending.add(get);
  return get;
}

/** Compiles every validator and serializer not compiled yet (throws the first compile error). */
export function compilePending(): number {
  let count = 0;
  for (const compile of [...pending]) {
    compile();
    count++;
  }
  return count;
}
