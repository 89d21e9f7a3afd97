import { Type } from '@sinclair/typebox';

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The `include` query parameter for an allow-list. Dot-nested entries (`user.groups`) also allow
 * their parents (`user`). Values outside the list fail validation with a 422 naming the allowed ones.
 */
export function IncludeParam(allowed: readonly string[]) {
  const values = expandParents(allowed);
  const one = `(${values.map(escape).join('|')})`;
  return Type.Optional(
    Type.String({
      pattern: `^${one}(,${one})*$`,
      description: `Comma-separated relations to embed. Allowed: ${values.join(', ')}.`,
      'x-allowed': values,
    }),
  );
}

function expandParents(allowed: readonly string[]): string[] {
  const out = new Set<string>();
  for (const path of allowed) {
    const parts = path.split('.');
    for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('.'));
  }
  return [...out];
}

/** The set of relations asked for; `user.groups` yields both `user` and `user.groups`. */
export function parseInclude(raw: string | undefined): Set<string> {
  return new Set(expandParents((raw ?? '').split(',').filter(Boolean)));
}
