import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../src/demo-seed.js';
import { issueUserToken } from '../../src/platform/auth/tokens.js';
import { answeredWithin, buildTestApp, inTwoChunks, type TestApp } from '../helpers.js';

/**
 * Bad input on every operation of the OpenAPI document, as a prober would send it: wrong types,
 * huge and odd values, invalid JSON, deep nesting, odd path ids, odd query and header values,
 * broken uploads. Whatever is wrong, the answer comes, is a 4xx with the contract's error body,
 * and is never a 5xx. Bounded to seconds: each parameter and field gets a few values of the pools
 * below (rotating, so every value meets many fields), one thing wrong at a time, the rest as valid
 * as the schema lets us make it. `SWEEP_FULL=1` tries every value everywhere (a minute or so).
 */

const FULL = process.env.SWEEP_FULL === '1';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  examples?: unknown[];
  example?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  minItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
  example?: unknown;
}
interface Operation {
  operationId: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}
interface Document {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}
interface Probe {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A stream comes from a function, as it can be sent once. */
  payload?: string | Buffer | (() => Readable);
  what: string;
  /** A field the schema itself must refuse: the answer is a 422 naming it (or a field inside it). */
  refusedField?: string;
}

const deep = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

/** Path segments, already URL-encoded: wrong types, limits, encodings, injections, someone else's ids. */
const ODD_IDS = [
  'abc',
  '0',
  '-1',
  '1.5',
  '1e999',
  '99999999999999999999999999',
  'null',
  'NaN',
  '%00',
  '%20',
  '%E0%A4%A',
  '%F0%9F%92%A9',
  '%27%20OR%20%271%27%3D%271',
  '..%2F..%2Fetc%2Fpasswd',
  'x'.repeat(190),
  'x'.repeat(400),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '%7B%22%24gt%22%3A%22%22%7D',
];

/** Query and header values, URL-encoded where they go into a query. */
const ODD_QUERY_VALUES = [
  '',
  'abc',
  '-1',
  '0',
  '1e999',
  '99999999999999999999999999',
  '1.5',
  '%00',
  '%E0%A4%A',
  '%F0%9F%92%A9',
  'x'.repeat(3000),
  ',,,',
  '-',
  'true',
  '2026-02-30',
  '9999-99-99T99%3A99%3A99Z',
  '%27%20OR%201%3D1--',
  'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p',
];

/** JSON texts for one field: wrong types, extremes, odd strings, nesting, prototype keys. */
const ODD_FIELD_VALUES = [
  'null',
  'true',
  '0',
  '-1',
  '1.5',
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '2147483648',
  '-0',
  '""',
  '" "',
  JSON.stringify('x'.repeat(70_000)),
  JSON.stringify('💩'.repeat(300)),
  '"\\u0000"',
  '"<script>alert(1)</script>"',
  '"\' OR 1=1 --"',
  '"2026-02-30T25:61:61Z"',
  '"NaN"',
  '[]',
  '[null]',
  '["x",1,{}]',
  '{}',
  '{"$gt":""}',
  '{"__proto__":{"polluted":true}}',
  deep(5000, '[', ']'),
  deep(1000, '{"a":', '}'),
];

/** Whole request bodies: broken, wrong at the top, too deep, polluting. */
const ODD_BODIES = [
  '{',
  '{"a":',
  '[]',
  'null',
  '"x"',
  '123',
  '\u0000',
  '{"a":1}{"b":2}',
  deep(100_000, '[', ']'),
  deep(20_000, '{"a":', '}'),
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
];

const PLACEHOLDER = '"\u0001odd\u0001"';

interface Part {
  name?: string;
  filename?: string;
  type?: string;
  body: string | Buffer;
}

/** A multipart/form-data body (boundary `sweep`), closed unless told otherwise. */
function multipart(parts: Part[], closed = true): Buffer {
  const chunks = parts.flatMap((part) => {
    const disposition = [
      'form-data',
      ...(part.name === undefined ? [] : [`name="${part.name}"`]),
      ...(part.filename === undefined ? [] : [`filename="${part.filename}"`]),
    ];
    const head = `--sweep\r\nContent-Disposition: ${disposition.join('; ')}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    return [Buffer.from(head), Buffer.from(part.body), Buffer.from('\r\n')];
  });
  return Buffer.concat([...chunks, Buffer.from(closed ? '--sweep--\r\n' : '--sweep\r\nContent-Disp')]);
}

const CSV = 'name,phone\nAnna Schmit,+352 621 123 456\n';
/** More fields than any upload takes beside its files (sound files 10, recordings 1; contact imports take 20). */
const TWELVE_FIELDS: Part[] = Array.from({ length: 12 }, (_, i) => ({ name: `field_${i}`, body: 'x' }));
/** Uploads for the operations that take multipart/form-data: odd names, files, fields, structure. */
const ODD_UPLOADS: Array<[string, Buffer]> = [
  ['no part', multipart([])],
  ['a csv file', multipart([{ name: 'file', filename: 'contacts.csv', type: 'text/csv', body: CSV }])],
  ['path in filename', multipart([{ name: 'file', filename: '../../../../etc/passwd', type: 'text/csv', body: CSV }])],
  ['long filename', multipart([{ name: 'file', filename: `${'x'.repeat(2000)}.csv`, type: 'text/csv', body: CSV }])],
  ['odd filename', multipart([{ name: 'file', filename: 'kontakte\u0000\u202e.xlsx', body: CSV }])],
  ['empty file', multipart([{ name: 'file', filename: 'empty.csv', type: 'text/csv', body: '' }])],
  [
    'garbage as xlsx',
    multipart([
      {
        name: 'file',
        filename: 'book.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        body: Buffer.from('PK\u0003\u0004garbage'),
      },
    ]),
  ],
  [
    'two files',
    multipart([
      { name: 'file', filename: 'a.csv', body: CSV },
      { name: 'file', filename: 'b.csv', body: CSV },
    ]),
  ],
  [
    'fields only',
    multipart([
      { name: 'delimiter', body: '\u0000' },
      { name: 'encoding', body: 'x'.repeat(5000) },
      { name: '__proto__', body: '{}' },
    ]),
  ],
  ['nameless part', multipart([{ filename: 'a.csv', body: CSV }])],
  ['unclosed', multipart([{ name: 'file', filename: 'a.csv', body: CSV }], false)],
  ['cdr not json', multipart([{ name: 'cdr', body: '{' }])],
  ['cdr deep', multipart([{ name: 'cdr', body: deep(50_000, '[', ']') }])],
  [
    'cdr and odd recording',
    multipart([
      { name: 'cdr', body: '{}' },
      { name: 'recording', filename: '../x.wav', type: 'audio/wav', body: 'RIFF' },
    ]),
  ],
  [
    'unknown file field',
    multipart([
      { name: 'cdr', body: '{}' },
      { name: 'other', filename: 'x.wav', body: 'RIFF' },
    ]),
  ],
  ['12 fields, then a file', multipart([...TWELVE_FIELDS, { name: 'file', filename: 'a.csv', type: 'text/csv', body: CSV }])],
  ['a file, then 12 fields', multipart([{ name: 'file', filename: 'a.csv', type: 'text/csv', body: CSV }, ...TWELVE_FIELDS])],
  ['cdr, then 12 fields', multipart([{ name: 'cdr', body: '{}' }, ...TWELVE_FIELDS])],
];

/** Content types of an upload that names no boundary the body could be split by. */
const NO_BOUNDARY = ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=""', 'multipart/form-data; charset=utf-8'];

/** An upload: its OpenAPI request body is multipart/form-data. */
const isUpload = (operation: Operation) => operation.requestBody?.content['multipart/form-data'] !== undefined;

/** A few of a pool (all of it with SWEEP_FULL), starting at a point that moves with each use, so every value meets many fields. */
function rotating<T>(pool: readonly T[], take: number): (turn: number) => T[] {
  const count = FULL ? pool.length : Math.min(take, pool.length);
  return (turn) => Array.from({ length: count }, (_, i) => pool[(turn * count + i) % pool.length]);
}

/** Whether a 4xx body is the contract's (Errors table): 401 `{error}`, 404 `{message: [..]}`, 422 `{message, errors}`, others `{message}`. */
function contractError(status: number, text: string): boolean {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (status === 401) return typeof body.error === 'string';
  if (status === 404) return Array.isArray(body.message) && body.message.every((item) => typeof item === 'string');
  if (status === 422) return typeof body.message === 'string' && typeof body.errors === 'object' && body.errors !== null;
  return typeof body.message === 'string' && !('statusCode' in body) && !('code' in body);
}

describe('bad input on every operation of the OpenAPI document', () => {
  let t: TestApp;
  let document: Document;
  let base: string;
  let tenant: DemoTenant;
  let other: DemoTenant;
  let adminToken: string;
  const answers: Array<{ probe: Probe; status: number; contentType: string; body: string; contract: boolean }> = [];

  beforeAll(async () => {
    t = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '100000000', CDR_DETAIL_RATE_LIMIT_PER_MINUTE: '100000000', JOB_WORKER: 'false', AMI_EVENTS: 'false' },
      // A live event stream the probes open ends at once (its longest life), so its answer completes.
      config: { eventStream: { heartbeatMs: 15_000, maxMs: 50, backlogEvents: 1000, backlogBytes: 1024 * 1024 } },
    });
    const { seed } = await seedDemo(t.ctx);
    [tenant, other] = seed.tenants;
    adminToken = await issueUserToken(t.ctx.db, t.ctx.clock, { id: tenant.admin.id, pbx_id: tenant.pbx_id }, { name: 'sweep', ttlSeconds: 3600 });
    document = t.app.swagger() as unknown as Document;
    base = new URL(document.servers[0].url).pathname;
  });
  afterAll(() => t.close());

  /** The token an operation takes: the tenant's admin where a user may call it, else the key its scheme names. */
  function tokenFor(operation: Operation): string | null {
    const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
    if (schemes.length === 0) return null;
    if (schemes.includes('bearerAuth')) return adminToken;
    if (schemes.includes('PbxApiKey')) return tenant.pbx_api_key;
    if (schemes.includes('ApiKeyAuth')) return tenant.internal_api_key;
    if (schemes.includes('PbxServerAuth')) return tenant.pbx_server_key;
    return tenant.integration_api_keys[0].token;
  }

  function resolve(schema: Schema | undefined): Schema {
    let current = schema ?? {};
    for (let hops = 0; current.$ref && hops < 10; hops++) current = document.components.schemas[current.$ref.split('/').pop()!] ?? {};
    if (current.allOf) return Object.assign({}, ...current.allOf.map(resolve)) as Schema;
    const alternatives = current.anyOf ?? current.oneOf;
    if (alternatives) return resolve(alternatives.find((alternative) => resolve(alternative).type !== 'null') ?? alternatives[0]);
    return current;
  }

  /** A value the schema accepts, as far as a schema says (its examples, enum, format, bounds). */
  function sample(raw: Schema | undefined, depth = 0): unknown {
    const schema = resolve(raw);
    if (schema.const !== undefined) return schema.const;
    if (schema.examples?.length) return schema.examples[0];
    if (schema.example !== undefined) return schema.example;
    if (schema.default !== undefined) return schema.default;
    if (schema.enum?.length) return schema.enum.find((value) => value !== null) ?? schema.enum[0];
    const type = Array.isArray(schema.type) ? schema.type.find((kind) => kind !== 'null') : schema.type;
    switch (type) {
      case 'object': {
        const object: Record<string, unknown> = {};
        for (const name of schema.required ?? []) if (depth < 4) object[name] = sample(schema.properties?.[name], depth + 1);
        return object;
      }
      case 'array':
        return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items, depth + 1));
      case 'integer':
      case 'number':
        return schema.minimum ?? 1;
      case 'boolean':
        return false;
      case 'string':
        return sampleString(schema);
      default:
        return null;
    }
  }

  function sampleString(schema: Schema): string {
    const formats: Record<string, () => string> = {
      uuid: () => randomUUID(),
      email: () => `sweep-${randomUUID().slice(0, 8)}@example.test`,
      date: () => '2027-03-15',
      'date-time': () => '2027-03-15T10:00:00Z',
      time: () => '10:00',
      uri: () => 'https://hooks.example.com/pbx',
    };
    if (schema.format && formats[schema.format]) return formats[schema.format]();
    const candidates = ['+35226123456', '102', 'general', 'sweep_value', '00:11:22:33:44:55', 'abcd1234', `msg_${'0'.repeat(32)}`, '2027-03-15'];
    const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : null;
    const value = pattern ? (candidates.find((candidate) => pattern.test(candidate)) ?? 'x') : 'sweep value';
    return value.padEnd(schema.minLength ?? 0, 'x');
  }

  /** Valid ids for path parameters: the demo tenant's samples, else the first item of the parent list. */
  async function validIds(path: string, parameters: Parameter[] = []): Promise<Record<string, string>> {
    const samples = tenant.samples as Record<string, string | number>;
    const known: Record<string, string | number | undefined> = {
      pbx_id: tenant.pbx_id,
      user: tenant.users[1].id,
      email: tenant.users[1].email,
      extension: samples.extension,
      sipDevice: samples.sip_device,
      phoneNumber: samples.phone_number,
      callerIdentity: samples.caller_identity,
      twinning: samples.twinning,
      userGroup: samples.user_group,
      userDnd: samples.dnd,
      forward: samples.forward,
      device: samples.push_device,
      phoneButtonId: samples.phone_button,
      contact: samples.contact,
      group: samples.contact_group,
      token: 'x'.repeat(43),
    };
    if (path.startsWith('/contacts/imports/')) known.id = samples.contact_import;
    if (path.startsWith('/cdrs/detail/')) known.id = samples.cdr;
    const ids: Record<string, string> = {};
    for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
      if (known[name] !== undefined) {
        ids[name] = String(known[name]);
        continue;
      }
      const parent = path.slice(0, path.indexOf(`{${name}}`) - 1).replace(/\{([^}]+)\}/g, (_, earlier: string) => ids[earlier]);
      const list = await t.app.inject({ url: `${base}${parent}`, headers: { authorization: `Bearer ${adminToken}` } });
      const first = list.statusCode === 200 ? list.json<{ data?: Array<Record<string, unknown>> }>().data?.[0] : undefined;
      // The item's id, its type (a setting's key) or its own field of that name (a version's number), as the parameter's schema takes it.
      const declared = parameters.find((parameter) => parameter.in === 'path' && parameter.name === name);
      const fits = (value: unknown) => {
        if (typeof value !== 'string' && typeof value !== 'number') return false;
        const schema = resolve(declared?.schema);
        if (schema.format === 'uuid' && !/^[0-9a-f-]{36}$/i.test(String(value))) return false;
        return !schema.pattern || new RegExp(schema.pattern, 'u').test(String(value));
      };
      const fromItem = [first?.id, first?.type, first?.[name]].find(fits);
      ids[name] = String(fromItem ?? (declared ? sample(declared.schema) : randomUUID()));
    }
    return ids;
  }

  /** Every probe of one operation: one thing wrong at a time. */
  async function probesOf(path: string, method: string, operation: Operation, turn: number): Promise<Probe[]> {
    const token = tokenFor(operation);
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const parameters = operation.parameters ?? [];
    const ids = await validIds(path);
    const requiredQuery = parameters
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => `${p.name}=${encodeURIComponent(String(p.example ?? sample(p.schema)))}`);
    const url = (pathIds: Record<string, string>, query: string[] = requiredQuery) =>
      `${base}${path.replace(/\{([^}]+)\}/g, (_, name: string) => pathIds[name])}${query.length ? `?${query.join('&')}` : ''}`;
    const validUrl = url(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, encodeURIComponent(id)])));
    const jsonSchema = operation.requestBody?.content['application/json']?.schema;
    const body = jsonSchema ? sample(jsonSchema) : undefined;
    const json = { ...headers, 'content-type': 'application/json' };
    const withBody = body === undefined ? {} : { payload: JSON.stringify(body) };
    const probes: Probe[] = [];
    const upper = method.toUpperCase();

    for (const parameter of parameters) {
      const others = requiredQuery.filter((pair) => !pair.startsWith(`${parameter.name}=`));
      if (parameter.in === 'path') {
        // The same kind of record, of the other tenant.
        const sampleKey = Object.keys(tenant.samples).find((key) => String(tenant.samples[key]) === ids[parameter.name]);
        const cross = sampleKey === undefined ? undefined : (other.samples as Record<string, string | number>)[sampleKey];
        const odd = [...rotating(ODD_IDS, 5)(turn), randomUUID(), ...(cross === undefined ? [] : [encodeURIComponent(String(cross))])];
        for (const value of odd)
          probes.push({
            method: upper,
            url: url({ ...ids, [parameter.name]: value }),
            headers: json,
            ...withBody,
            what: `path ${parameter.name}=${value.slice(0, 40)}`,
          });
      } else if (parameter.in === 'query') {
        for (const value of rotating(ODD_QUERY_VALUES, 4)(turn)) {
          probes.push({
            method: upper,
            url: url(ids, [...others, `${parameter.name}=${value}`]),
            headers: json,
            ...withBody,
            what: `query ${parameter.name}=${value.slice(0, 40)}`,
          });
        }
        probes.push({
          method: upper,
          url: url(ids, [...others, `${parameter.name}=a`, `${parameter.name}=b`]),
          headers: json,
          ...withBody,
          what: `query ${parameter.name} twice`,
        });
        probes.push({ method: upper, url: url(ids, [...others, `${parameter.name}[x]=1`]), headers: json, ...withBody, what: `query ${parameter.name}[x]` });
      } else if (parameter.in === 'header') {
        for (const value of ['', ' ', 'x'.repeat(300), '\t', 'a b', '%00']) {
          probes.push({
            method: upper,
            url: validUrl,
            headers: { ...json, [parameter.name]: value },
            ...withBody,
            what: `header ${parameter.name}=${value.slice(0, 20)}`,
          });
        }
      }
    }

    // Whole bodies: broken JSON and the like, on every operation (a body where none is expected is bad input too).
    for (const payload of rotating(ODD_BODIES, 3)(turn))
      probes.push({ method: upper, url: validUrl, headers: json, payload, what: `body ${payload.slice(0, 30)}` });
    probes.push({ method: upper, url: validUrl, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'hello', what: 'text/plain body' });
    const form = { ...headers, 'content-type': 'multipart/form-data; boundary=sweep' };
    if (isUpload(operation)) {
      for (const [what, payload] of ODD_UPLOADS) probes.push({ method: upper, url: validUrl, headers: form, payload, what: `upload: ${what}` });
      for (const contentType of NO_BOUNDARY)
        probes.push({
          method: upper,
          url: validUrl,
          headers: { ...headers, 'content-type': contentType },
          payload: ODD_UPLOADS[1][1],
          what: `upload: ${contentType}`,
        });
      // Cut short while a large file is being read, as over a slow network.
      const large = multipart(
        [
          { name: 'cdr', body: '{}' },
          { name: 'file', filename: 'big.csv', type: 'text/csv', body: CSV.repeat(5000) },
        ],
        false,
      );
      probes.push({ method: upper, url: validUrl, headers: form, payload: () => inTwoChunks(large, 60_000), what: 'upload: cut short in two chunks' });
    } else probes.push({ method: upper, url: validUrl, headers: form, payload: ODD_UPLOADS[1][1], what: 'upload where none is taken' });
    probes.push({
      method: upper,
      url: validUrl,
      headers: { ...headers, 'content-type': 'application/json; charset=utf-16' },
      payload: '{}',
      what: 'json in utf-16',
    });

    // Each field of the body, one level down too, replaced by an odd value while the rest stays valid.
    if (jsonSchema) {
      const fields = fieldPaths(jsonSchema);
      fields.forEach((field, index) => {
        for (const raw of rotating(ODD_FIELD_VALUES, 3)(turn + index)) {
          const payload = JSON.stringify(withField(body, field, PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), raw);
          probes.push({ method: upper, url: validUrl, headers: json, payload, what: `field ${field.join('.')}=${raw.slice(0, 30)}` });
        }
        // A list of objects holding something else (`[null]`, `[1]`, `["a"]`, `[[]]`): refused by the schema, at the item.
        if (isListOfObjects(jsonSchema, field)) {
          for (const raw of ['[null]', '[1]', '["a"]', '[[]]']) {
            const payload = JSON.stringify(withField(body, field, PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), raw);
            probes.push({ method: upper, url: validUrl, headers: json, payload, what: `field ${field.join('.')}=${raw}`, refusedField: field.join('.') });
          }
        }
      });
      probes.push({ method: upper, url: validUrl, headers: json, payload: JSON.stringify({ ...(body as object), unexpected_field: 1 }), what: 'extra field' });
    }
    return probes;
  }

  /** Whether the field at `path` is an array whose items are objects. */
  function isListOfObjects(raw: Schema, path: Array<string | number>): boolean {
    let schema = resolve(raw);
    for (const key of path) schema = typeof key === 'number' ? resolve(schema.items) : resolve(schema.properties?.[key]);
    return schema.type === 'array' && schema.items !== undefined && resolve(schema.items).type === 'object';
  }

  /** `['name']`, `['targets', 'webrtc']`, `['contactPhoneNumbers', 0, 'number']`: fields to two levels. */
  function fieldPaths(raw: Schema, prefix: Array<string | number> = []): Array<Array<string | number>> {
    const schema = resolve(raw);
    if (prefix.length >= 3) return [];
    const paths: Array<Array<string | number>> = [];
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      paths.push([...prefix, name]);
      const inner = resolve(property);
      if (inner.properties) paths.push(...fieldPaths(inner, [...prefix, name]));
      const items = inner.items ? resolve(inner.items) : null;
      if (items?.properties) paths.push(...fieldPaths(items, [...prefix, name, 0]));
    }
    return paths;
  }

  /** The body with the value at `path` replaced, its parents made when missing. */
  function withField(body: unknown, path: Array<string | number>, value: unknown): unknown {
    const copy = structuredClone(body ?? {}) as Record<string | number, unknown>;
    let node = copy;
    path.forEach((key, index) => {
      if (index === path.length - 1) node[key] = value;
      else {
        const next = typeof path[index + 1] === 'number' ? [] : {};
        if (typeof node[key] !== 'object' || node[key] === null) node[key] = next;
        node = node[key] as Record<string | number, unknown>;
      }
    });
    return copy;
  }

  it('refuses, on every read, an include it does not embed, a filter it does not declare and a repeated parameter, with the 422 naming them', async () => {
    const refusals: string[] = [];
    let reads = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      const operation = methods.get;
      if (!operation) continue;
      reads++;
      const token = tokenFor(operation);
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const ids = await validIds(path, operation.parameters);
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const required = query.filter((p) => p.required).map((p) => `${p.name}=${encodeURIComponent(String(p.example ?? sample(p.schema)))}`);
      const url = (extra: string[]) =>
        `${base}${path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ids[name]))}?${[...required, ...extra].join('&')}`;
      const include = query.find((p) => p.name === 'include');
      const expectations: Array<[string[], string]> = [
        [['include=zzz'], 'include'],
        [['include=a', 'include=b'], 'include'],
        [['filter[zzz]=1'], 'filter[zzz]'],
        [['filter%5Bzzz%5D=1'], 'filter[zzz]'],
        // Every declared parameter sent twice: one value is expected, two are refused, never a 5xx.
        ...query.filter((p) => p.name !== 'include').map((p): [string[], string] => [[`${p.name}=1`, `${p.name}=2`], p.name]),
      ];
      for (const [extra, field] of expectations) {
        const response = await t.app.inject({ method: 'GET', url: url(extra), headers });
        const errors = response.statusCode === 422 ? (response.json<{ errors: Record<string, string[]> }>().errors ?? {}) : {};
        if (!(field in errors)) refusals.push(`${response.statusCode} GET ${path}?${extra.join('&')} ${response.body.slice(0, 160)}`);
        else if (field === 'include' && !include && !errors.include[0].includes('embeds no relations')) refusals.push(`${path}: ${errors.include[0]}`);
      }
    }
    expect(reads).toBeGreaterThan(40);
    expect(refusals).toEqual([]);
  });

  it('knows the uploads by their multipart/form-data request body, which names their parts and binary files', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations.filter(isUpload).map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining(['createSoundFile', 'replaceSoundFileContent', 'createContactImport', 'ingestCallDetailRecordWithRecordings']),
    );
    for (const operation of operations.filter(isUpload)) {
      const parts = Object.values(operation.requestBody?.content['multipart/form-data'].schema?.properties ?? {});
      expect(
        parts.some((part) => part.type === 'string' && part.format === 'binary'),
        operation.operationId,
      ).toBe(true);
    }
    // Nothing takes multipart/form-data by its description alone.
    expect(operations.filter((operation) => operation.description?.includes('multipart/form-data') && !isUpload(operation))).toEqual([]);
  });

  it('answers every probe, with a success or a 4xx in the contract error body, never a 5xx', { timeout: FULL ? 1_800_000 : 60_000 }, async () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    // Deletions last, and the logout (which revokes the admin's token) at the very end.
    const rank = ({ path, method }: { path: string; method: string }) => (path === '/logout' ? 2 : method === 'delete' ? 1 : 0);
    operations.sort((a, b) => rank(a) - rank(b));
    expect(operations.length).toBeGreaterThan(100);

    let turn = 0;
    for (const { path, method, operation } of operations) {
      for (const probe of await probesOf(path, method, operation, turn++)) {
        const payload = typeof probe.payload === 'function' ? probe.payload() : probe.payload;
        const response = await answeredWithin(t.app.inject({ method: probe.method as 'GET', url: probe.url, headers: probe.headers, payload }), 5000).catch(
          () => null,
        );
        if (response === null) {
          answers.push({ probe, status: 0, contentType: '', body: 'no answer within 5 s', contract: false });
          continue;
        }
        const status = response.statusCode;
        answers.push({
          probe,
          status,
          contentType: String(response.headers['content-type'] ?? ''),
          body: response.body.slice(0, 300),
          contract: status < 400 || status >= 500 || contractError(status, response.body),
        });
      }
    }

    const serverErrors = answers
      .filter((answer) => answer.status >= 500 || answer.status === 0)
      .map(({ probe, status, body }) => `${status} ${probe.method} ${probe.url.slice(0, 120)} [${probe.what}] ${body}`);
    expect(serverErrors).toEqual([]);
    const notContract = answers
      .filter((answer) => !answer.contract || (answer.status >= 400 && !answer.contentType.startsWith('application/json')))
      .map(
        ({ probe, status, contentType, body }) => `${status} ${contentType} ${probe.method} ${probe.url.slice(0, 120)} [${probe.what}] ${body.slice(0, 120)}`,
      );
    expect(notContract).toEqual([]);
    // Refused by the schema, before any business rule: a 422 naming the field or an item of it (an answer of 401 or 403 came first).
    const notRefused = answers
      .filter(({ probe, status, body }) => {
        if (probe.refusedField === undefined || status === 401 || status === 403) return false;
        const fields = status === 422 ? Object.keys((JSON.parse(body) as { errors?: object }).errors ?? {}) : [];
        return !fields.some((field) => field === probe.refusedField || field.startsWith(`${probe.refusedField}.`));
      })
      .map(({ probe, status, body }) => `${status} ${probe.method} ${probe.url.slice(0, 120)} [${probe.what}] ${body.slice(0, 160)}`);
    expect(notRefused).toEqual([]);
    expect(answers.length).toBeGreaterThan(3000);
  });
});
