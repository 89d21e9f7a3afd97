import { eventKinds } from './event-kinds.js';

/**
 * What selects event kinds: a kind's name (`call.answered`), or a prefix and `.*` for every kind
 * under it (`call.*`). Webhook subscriptions store these; the same grammar serves any kind filter.
 */
export const KIND_PATTERN = '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*\\.([a-z][a-z0-9_]*|\\*)$';

/** Whether `kind` is selected by `pattern`. */
export function kindMatches(pattern: string, kind: string): boolean {
  return pattern.endsWith('.*') ? kind.startsWith(pattern.slice(0, -1)) : kind === pattern;
}

/** Whether any of `patterns` selects `kind`. */
export function anyKindMatches(patterns: readonly string[], kind: string): boolean {
  return patterns.some((pattern) => kindMatches(pattern, kind));
}

/** The patterns that select no registered kind (a misspelt name, a prefix nothing has), in their order. */
export function unknownKindPatterns(patterns: readonly string[]): string[] {
  const kinds = eventKinds().map((kind) => kind.kind);
  return patterns.filter((pattern) => !kinds.some((kind) => kindMatches(pattern, kind)));
}
