import { QUERY_RULES, type QueryKeyRules } from './query-rules.js';

/** The parts of an ajv error we read (ajv runs with `verbose`, so parentSchema is there). */
export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: Record<string, unknown>;
  /** Set on errors raised inside `propertyNames`: the property whose name was refused. */
  propertyName?: string;
}

/** The property a `propertyNames` rule refused (query keys a route does not take, see query-rules.ts). */
function refusedName(error: AjvError): string | undefined {
  return error.propertyName ?? (error.keyword === 'propertyNames' ? String(error.params.propertyName) : undefined);
}

/**
 * Whether an error only repeats another: ajv reports a refused property name twice, once from
 * the rule inside `propertyNames` and once as `propertyNames` itself, which alone is worded.
 */
export function repeatsAnother(error: AjvError, all: readonly AjvError[]): boolean {
  if (error.propertyName !== undefined && error.keyword !== 'propertyNames') return true;
  // A query that refuses every undeclared key (additionalProperties: false) refuses a mistyped filter twice too; the rule's wording says more.
  return (
    error.keyword === 'additionalProperties' &&
    all.some((other) => other.keyword === 'propertyNames' && other.params.propertyName === error.params.additionalProperty)
  );
}

function refusedQueryKey(name: string, rules: QueryKeyRules | undefined): string {
  if (rules?.pageSize && (name === 'perPage' || name === 'per_page')) return `The ${name} parameter is not accepted here; the page size is ${rules.pageSize}.`;
  if (name === 'include') return 'The selected include is invalid: this endpoint embeds no relations.';
  if (name === 'sort') return 'The sort parameter is not accepted here: this list has a fixed order.';
  if (name === 'search') return 'The search parameter is not accepted here: this list has no search.';
  if (name.startsWith('filter[')) {
    return rules?.filters.length
      ? `The ${name} parameter is not accepted here. Filters: ${rules.filters.join(', ')}.`
      : `The ${name} parameter is not accepted here: this endpoint takes no filters.`;
  }
  return `The ${name} parameter is not accepted here.`;
}

/**
 * The field as the client named it: body paths dot-joined (`dnds.0.type`), query keys as sent
 * (`filter[type]`, `perPage`).
 */
export function validationField(error: AjvError, context?: string): string {
  const refused = refusedName(error);
  if (refused) return refused;
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  if (segments.length === 0) return context ?? 'body';
  return segments.join('.');
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

const FORMAT_NAMES: Record<string, string> = {
  email: 'a valid email address',
  uuid: 'a valid UUID',
  date: 'a valid date (YYYY-MM-DD)',
  'date-time': 'a valid ISO 8601 date-time',
  time: 'a valid time',
  uri: 'a valid URL',
};

/** Text that reaches the PBX (`PbxText` in schema.ts, and multipart fields) holding a control character. */
export function pbxTextMessage(field: string): string {
  return `The ${field.replace(/_/g, ' ')} field must not contain control characters such as line breaks.`;
}

/** A Laravel-style sentence for one ajv error. */
export function validationMessage(error: AjvError, field: string): string {
  const label = field.replace(/_/g, ' ');
  const p = error.params;
  const refused = refusedName(error);
  if (refused !== undefined) {
    const rule = error.parentSchema?.propertyNames as Record<string, unknown> | undefined;
    return refusedQueryKey(refused, rule?.[QUERY_RULES] as QueryKeyRules | undefined);
  }
  switch (error.keyword) {
    case 'required':
      return `The ${label} field is required.`;
    case 'type': {
      const types = String(p.type)
        .split(',')
        .filter((t) => t !== 'null');
      return `The ${label} field must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}.`;
    }
    case 'format':
      return `The ${label} field must be ${FORMAT_NAMES[String(p.format)] ?? `a valid ${String(p.format)}`}.`;
    case 'minLength':
      return `The ${label} field must be at least ${String(p.limit)} characters.`;
    case 'maxLength':
      return `The ${label} field must not be greater than ${String(p.limit)} characters.`;
    case 'minimum':
      return `The ${label} field must be at least ${String(p.limit)}.`;
    case 'maximum':
      return `The ${label} field must not be greater than ${String(p.limit)}.`;
    case 'exclusiveMinimum':
      return `The ${label} field must be greater than ${String(p.limit)}.`;
    case 'exclusiveMaximum':
      return `The ${label} field must be less than ${String(p.limit)}.`;
    case 'minItems':
      return `The ${label} field must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}.`;
    case 'maxItems':
      return `The ${label} field must not have more than ${String(p.limit)} items.`;
    case 'uniqueItems':
      return `The ${label} field has a duplicate value.`;
    case 'enum':
      return `The selected ${label} is invalid. Allowed: ${(p.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return `The selected ${label} is invalid.`;
    case 'additionalProperties':
      return `The ${label} field is not allowed.`;
    case 'pattern': {
      const allowed = error.parentSchema?.['x-allowed'];
      if (Array.isArray(allowed)) return `The selected ${label} is invalid. Allowed: ${allowed.join(', ')}.`;
      const pbxText = error.parentSchema?.['x-pbx-text'];
      if (pbxText === 'text') return pbxTextMessage(field);
      if (pbxText === 'secret')
        return `The ${label} field must not contain control characters such as line breaks, begin or end with white space, or begin with a backslash.`;
      return `The ${label} field format is invalid.`;
    }
    case 'nul':
      return `The ${label} field must not contain the NUL character (U+0000).`;
    default:
      return `The ${label} field is invalid.`;
  }
}
