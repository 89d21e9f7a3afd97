import { NUMBER_TYPES } from '../contacts/contacts.schemas.js';
import { toE164 } from '../contacts/phone.js';
import type { PreparedNumber } from '../contacts/contacts.service.js';
import type { ImportMappingT } from './contact-imports.schemas.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TRUTHY = /^(1|x|true|yes|y|ja|oui|vip)$/i;
const SCALARS = ['name1', 'name2', 'email', 'company_name', 'department', 'job_title', 'notes'] as const;

/** A file row turned into what a contact needs, or the reasons it cannot be one. */
export interface Candidate {
  fields: {
    name1: string;
    name2: string | null;
    email: string | null;
    company_name: string | null;
    department: string | null;
    job_title: string | null;
    notes: string | null;
    vip: number | null;
  };
  emailNormalized: string | null;
  numbers: PreparedNumber[];
  groupIds: string[];
  errors: Map<string, string[]>;
}

/** Distinct numbers an import remembers the E.164 of; past this it starts over, so memory stays bounded. */
const PHONE_CACHE_LIMIT = 50_000;

/**
 * The E.164 of a cell (null when invalid), read once per distinct text during an import: a file
 * repeats switchboard numbers, and an import without skip_on_error reads every row twice.
 */
export type PhoneCache = Map<string, string | null>;

function cachedE164(value: string, country: string, cache: PhoneCache | undefined): string | null {
  if (!cache) return toE164(value, country);
  let e164 = cache.get(value);
  if (e164 === undefined) {
    e164 = toE164(value, country);
    if (cache.size >= PHONE_CACHE_LIMIT) cache.clear();
    cache.set(value, e164);
  }
  return e164;
}

/**
 * Reads one row through the saved mapping; numbers become E.164 with the PBX country as default
 * region. `phones` (one per import and country) remembers the numbers already read.
 */
export function mapRow(cells: string[], mappings: ImportMappingT[], country: string, groupsByName: Map<string, string>, phones?: PhoneCache): Candidate {
  const errors = new Map<string, string[]>();
  const fail = (attribute: string, message: string) => {
    const list = errors.get(attribute);
    if (list) list.push(message);
    else errors.set(attribute, [message]);
  };
  const candidate: Candidate = {
    fields: { name1: '', name2: null, email: null, company_name: null, department: null, job_title: null, notes: null, vip: null },
    emailNormalized: null,
    numbers: [],
    groupIds: [],
    errors,
  };
  for (const mapping of mappings) {
    const value = (cells[mapping.column] ?? '').trim();
    const field = mapping.field;
    if ((SCALARS as readonly string[]).includes(field)) {
      const key = field as (typeof SCALARS)[number];
      const max = key === 'notes' ? 65535 : 255;
      if (value.length > max) fail(key, `The ${key.replace(/_/g, ' ')} field must not be greater than ${max} characters.`);
      else if (value) candidate.fields[key] = value;
    } else if (field === 'vip') {
      if (value) candidate.fields.vip = TRUTHY.test(value) ? 1 : 0;
    } else if (field === 'phone_number') {
      if (!value) continue;
      const e164 = cachedE164(value, country, phones);
      if (!e164) {
        fail('phone_number', `The phone number "${value}" is not a valid phone number.`);
        continue;
      }
      if (candidate.numbers.some((n) => n.phone_number === e164)) continue;
      const sub = (name: string) => mapping.subfields.find((s) => s.name === name)?.value ?? null;
      candidate.numbers.push({ phone_number_raw: value, phone_number: e164, label: sub('label'), type: sub('type') ?? 'work', speed_dial: null });
    } else if (field === 'group') {
      for (const name of value
        .split(/[,;|]/)
        .map((n) => n.trim())
        .filter(Boolean)) {
        const id = groupsByName.get(name.toLowerCase());
        if (id) {
          if (!candidate.groupIds.includes(id)) candidate.groupIds.push(id);
        } else fail('group', `The contact group "${name}" does not exist.`);
      }
    }
  }
  if (!candidate.fields.name1) fail('name1', 'The name1 field is required.');
  if (candidate.fields.email) {
    if (!EMAIL.test(candidate.fields.email)) fail('email', 'The email field must be a valid email address.');
    else candidate.emailNormalized = candidate.fields.email.toLowerCase();
  }
  return candidate;
}

/** Mapping rules checked when a mapping is saved. */
export function mappingErrors(mappings: ImportMappingT[], columnCount: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  mappings.forEach((m, i) => {
    if (m.column >= columnCount) errors[`mappings.${i}.column`] = [`The file has ${columnCount} column(s); column ${m.column} does not exist.`];
    if (m.field !== 'phone_number' && m.field !== 'group') {
      if (seen.has(m.field)) errors[`mappings.${i}.field`] = [`The field ${m.field} is mapped twice.`];
      seen.add(m.field);
    }
    if (m.subfields.length && m.field !== 'phone_number') errors[`mappings.${i}.subfields`] = ['Only phone_number mappings take subfields.'];
    const type = m.subfields.find((s) => s.name === 'type')?.value;
    if (type && !(NUMBER_TYPES as readonly string[]).includes(type))
      errors[`mappings.${i}.subfields`] = [`The number type must be one of: ${NUMBER_TYPES.join(', ')}.`];
  });
  if (!mappings.some((m) => m.field === 'name1')) errors.mappings = ['The name1 field must be mapped to a column.'];
  return errors;
}
