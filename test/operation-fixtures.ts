import { randomUUID } from 'node:crypto';
import type { TestApp } from './helpers.js';
import type { DemoTenant } from '../src/demo-seed.js';
import { issueUserToken } from '../src/platform/auth/tokens.js';
import { enqueueWebhook } from '../src/platform/webhooks/webhooks.js';
import { insertWebhookSubscription } from '../src/platform/webhooks/subscriptions.js';

/**
 * What the sweeps over every operation of the OpenAPI document share (test/foundation: tenancy,
 * conditional requests): a request body each operation accepts, and a real id of tenant A's for
 * each path parameter.
 */

/** The parts of an OpenAPI schema this test reads to write a request body the route accepts. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  const?: unknown;
  enum?: unknown[];
  examples?: unknown[];
  example?: unknown;
  default?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
}

export interface Operation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}

export interface Document {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** A value the schema accepts: its example or default where it gives one, else the simplest that fits. */
export function sampleOf(schema: Schema, document: Document): unknown {
  if (schema.$ref) return sampleOf(document.components.schemas[schema.$ref.replace(/^#\/components\/schemas\//, '').replace(/#$/, '')], document);
  if ('const' in schema) return schema.const;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return sampleOf(variants.find((variant) => variant.type !== 'null') ?? variants[0], document);
  if (schema.allOf) return Object.assign({}, ...(schema.allOf.map((part) => sampleOf(part, document)) as object[]));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, sampleOf(schema.properties?.[name] ?? {}, document)]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}, document));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'email') return 'someone@example.test';
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (schema.format === 'date') return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      return 'sample'.padEnd(schema.minLength ?? 0, 'x');
    default:
      return null;
  }
}

/** Tenant A's ids and an administrator's token. */
export interface TenantAFixture {
  adminToken: string;
  /** Tenant A's value of the path parameter `name` of `path` (the owner of a child in a child's path). */
  valueFor: (path: string, name: string) => string | undefined;
}

/**
 * A real id of tenant A's for every path parameter of the document, from the demo seed, after
 * making what the seed does not: a user setting, a webhook delivery and a webhook subscription.
 * An operation with a path parameter this cannot fill fails the sweeps: give the demo seed a sample.
 */
export async function tenantAFixture(t: TestApp, a: DemoTenant, base: string): Promise<TenantAFixture> {
  const samples = a.samples as Record<string, string | number>;
  const db = t.ctx.db;
  const ownerOf = async (table: 'twinnings' | 'forwards' | 'user_dnds' | 'phone_buttons', id: string | number) =>
    (await db.selectFrom(table).select('user_id').where('id', '=', String(id)).executeTakeFirstOrThrow()).user_id;
  const adminToken = await issueUserToken(db, t.ctx.clock, { id: a.admin.id, pbx_id: a.pbx_id }, { name: 'test', ttlSeconds: 3600 });
  const member = a.users.find((user) => user.id !== a.admin.id)!;
  // What the demo seed does not make: a user setting, a webhook delivery and a webhook subscription of tenant A.
  await t.app.inject({
    method: 'POST',
    url: `${base}/users/${member.id}/user-settings`,
    headers: { authorization: `Bearer ${adminToken}` },
    payload: { type: 'softphone', settings: '{"ringtone":"classic"}' },
  });
  const delivery = await enqueueWebhook(db, t.ctx.clock, {
    pbxId: a.pbx_id,
    userId: a.admin.id,
    event: 'contact_import.completed',
    subjectType: 'contact_import',
    subjectId: String(samples.contact_import),
    url: 'https://hooks.example.net/pbx',
    data: {},
  });
  const subscription = await insertWebhookSubscription(db, t.ctx.clock, {
    pbxId: a.pbx_id,
    userId: a.admin.id,
    url: 'https://hooks.example.net/pbx-events',
    kinds: ['contact_import.*'],
  });
  const integrationKey = await db
    .selectFrom('api_keys')
    .select('id')
    .where('pbx_id', '=', a.pbx_id)
    .where('kind', '=', 'integration')
    .executeTakeFirstOrThrow();
  const webrtcUser = await db.selectFrom('webrtc_configurations').select('user_id').where('pbx_id', '=', a.pbx_id).executeTakeFirstOrThrow();

  const values: Record<string, string> = {
    apiKey: integrationKey.id,
    delivery,
    subscription: subscription.id,
    user: member.id,
    extension: String(samples.extension),
    sipDevice: String(samples.sip_device),
    phoneNumber: String(samples.phone_number),
    callerIdentity: String(samples.caller_identity),
    twinning: String(samples.twinning),
    userGroup: String(samples.user_group),
    userDnd: String(samples.dnd),
    forward: String(samples.forward),
    type: 'softphone',
    device: String(samples.push_device),
    phoneButtonId: String(samples.phone_button),
    email: a.users.find((user) => user.id === webrtcUser.user_id)!.email,
    contact: String(samples.contact),
    group: String(samples.contact_group),
    company: String(samples.company),
    department: String(samples.department),
    employee: String(samples.employee),
    // The admin's own employee record: the one record required work time answers its own user for.
    employee_id: a.users.find((user) => user.id === a.admin.id)!.employee_id!,
    contract: String(samples.contract),
    work_shift: String(samples.work_shift),
    assignment: String(samples.work_shift_assignment),
    holiday: String(samples.holiday),
    absence_request: String(samples.absence_request),
    absence_type: String(samples.absence_type),
    status: String(samples.planning_status),
    schedule: String(samples.schedule_department),
    entry: String(samples.planning_entry),
    soundFile: String(samples.sound_file_announcement),
    ivr: String(samples.ivr),
    step: String(samples.ivr_step),
    callFlow: String(samples.call_flow),
    queue: String(samples.queue),
    push: String(samples.config_push),
    version: String(samples.config_version),
  };
  // A child's path names its owner, so the request is exactly what tenant A's own client would send.
  const owners: Record<string, string> = {
    twinning: await ownerOf('twinnings', samples.twinning),
    userDnd: await ownerOf('user_dnds', samples.dnd),
    forward: await ownerOf('forwards', samples.forward),
    phoneButtonId: await ownerOf('phone_buttons', samples.phone_button),
  };
  const valueFor = (path: string, name: string): string | undefined => {
    if (name === 'id') {
      if (path.startsWith('/recurring-transactions/')) return String(samples.recurring_transaction);
      if (path.startsWith('/calls/')) return String(samples.placed_call);
      return path.startsWith('/cdrs/') ? String(samples.cdr) : path.startsWith('/contacts/imports/') ? String(samples.contact_import) : undefined;
    }
    if (name === 'user') {
      const child = Object.keys(owners).find((param) => path.includes(`{${param}}`));
      if (child) return owners[child];
    }
    return values[name];
  };
  return { adminToken, valueFor };
}
