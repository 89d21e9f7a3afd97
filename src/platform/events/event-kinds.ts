import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { IntegrationScope } from '../auth/principal.js';

/**
 * A kind of live event, declared by the domain that produces it. Besides the users the event's
 * audience names, the kind says which API keys receive it: the same keys that may GET its subject.
 */
export interface EventKindDefinition<S extends TSchema = TSchema> {
  /** `<subject>.<what happened>`, lower case (`call.answered`, `device.registered`); the stream's `kinds` filter matches it. */
  kind: string;
  /** The subject's type (`call`, `sip_device`): what `subject.type` of every event of this kind is. */
  subject: string;
  /** One or two sentences for the AsyncAPI document. */
  description: string;
  /** The event's `data`. */
  data: S;
  /** The PBX's own API key receives it (it may read the subject over REST). */
  pbxKey: boolean;
  /** Integration keys holding this scope receive it; none when unset. */
  integrationScope?: IntegrationScope;
  /** The PBX server's key receives it (routing changes, which it reads to run the PBX); false when unset. */
  pbxServer?: boolean;
}

export type EventKind<S extends TSchema = TSchema> = Readonly<EventKindDefinition<S>>;

const KIND_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
const SUBJECT_NAME = /^[a-z][a-z0-9_]*$/;

const registry = new Map<string, EventKind>();
const checks = new Map<string, ValidateFunction>();
let ajv: Ajv | undefined;

/**
 * Registers a kind; domains call it at import time (like `defineJob`), so the registry lists every
 * kind for the AsyncAPI document and the stream's filter. A kind's name has a dot, so it never
 * collides with the stream's own control events (`reset`, `close`). Defining the same kind again
 * is allowed only with the same definition (a module evaluated twice), never a different one.
 */
export function defineEventKind<S extends TSchema>(definition: EventKindDefinition<S>): EventKind<S> {
  if (!KIND_NAME.test(definition.kind) || definition.kind.length > 64) {
    throw new Error(`event kind "${definition.kind}" must be dot-separated lower-case words, at most 64 characters (e.g. call.answered)`);
  }
  if (!SUBJECT_NAME.test(definition.subject) || definition.subject.length > 64) {
    throw new Error(`event kind ${definition.kind}: subject "${definition.subject}" must be one lower-case word (e.g. call, sip_device)`);
  }
  const kind: EventKind<S> = Object.freeze({ ...definition });
  const before = registry.get(kind.kind);
  if (before && JSON.stringify(before) !== JSON.stringify(kind)) throw new Error(`event kind ${kind.kind} is defined twice, differently`);
  registry.set(kind.kind, kind);
  return kind;
}

/** Every registered kind, by name. */
export function eventKinds(): EventKind[] {
  return [...registry.values()].sort((a, b) => a.kind.localeCompare(b.kind));
}

export function eventKind(name: string): EventKind | undefined {
  return registry.get(name);
}

/**
 * Whether `data` is what the kind declares (compiled once per kind). Checked by ajv with the
 * formats, as the API's own schemas are: the domains build event data from the same helpers
 * (`Nullable`'s type lists, `StringEnum`, `format: uuid`), which TypeBox's own compiler refuses or
 * fails without registered formats.
 */
export function isEventData<S extends TSchema>(kind: EventKind<S>, data: unknown): data is Static<S> {
  let check = checks.get(kind.kind);
  if (!check) {
    if (!ajv) {
      ajv = new Ajv({ strict: false, allErrors: false });
      addFormats.default(ajv);
    }
    checks.set(kind.kind, (check = ajv.compile(kind.data)));
  }
  return check(data) === true;
}
