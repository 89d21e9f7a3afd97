import { execFileSync } from 'node:child_process';
import { Parser } from '@asyncapi/parser';
import { Type } from '@sinclair/typebox';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers.js';
import { Nullable, StringEnum } from '../../src/http/schema.js';
import { defineEventKind, eventKinds } from '../../src/platform/events/index.js';

/** A kind of this test, with the schema shapes domains use (nested objects, enums, nullables, examples). */
const tested = defineEventKind({
  kind: 'test_asyncapi.checked',
  subject: 'widget',
  description: 'A widget was checked (tests).',
  data: Type.Object(
    {
      status: StringEnum(['ok', 'broken']),
      note: Nullable(Type.String()),
      parts: Type.Array(Type.Object({ id: Type.String(), count: Type.Integer({ minimum: 0 }) })),
    },
    { examples: [{ status: 'ok', note: null, parts: [{ id: 'p1', count: 2 }] }] },
  ),
  pbxKey: false,
  integrationScope: 'contacts',
});

interface Document {
  asyncapi: string;
  info: { version: string; description: string };
  servers: Record<string, { host: string; protocol: string; pathname?: string }>;
  channels: Record<string, { address: string | null; messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { action: string; channel: { $ref: string }; security?: Array<{ $ref: string }>; messages: Array<{ $ref: string }> }>;
  components: {
    schemas: Record<string, { properties: Record<string, unknown> }>;
    messages: Record<string, { payload: unknown; description: string }>;
    securitySchemes: Record<string, { type: string }>;
  };
}

describe('AsyncAPI document of the live events', () => {
  const t = useTestApp();
  let document: Document;
  let raw: string;
  let openapi: {
    info: { version: string; description: string };
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, { security: object[] }>>;
  };
  /** The streams' channels, for the stream operations the OpenAPI document has (each has one). */
  let streams: Array<[channel: string, path: string]>;

  beforeAll(async () => {
    openapi = (await t.app.inject('/api/v1/openapi.json')).json();
    streams = (
      [
        ['eventStream', '/events/stream'],
        ['eventSocket', '/events/socket'],
      ] as Array<[string, string]>
    ).filter(([, path]) => path in openapi.paths);
    const response = await t.app.inject('/api/v1/asyncapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    raw = response.body;
    document = response.json();
  });

  it('is valid AsyncAPI 3.0, as a maintained parser reads it (offline: no reference leaves the document)', async () => {
    expect(document.asyncapi).toBe('3.0.0');
    const { document: parsed, diagnostics } = await new Parser().parse(raw);
    const problems = diagnostics
      // Spectral's severities: 0 error, 1 warning, 2 information (the newer 3.1 exists), 3 hint.
      .filter((diagnostic) => Number(diagnostic.severity) <= 1)
      .map((diagnostic) => `${diagnostic.code} at ${diagnostic.path.join('.')}: ${diagnostic.message}`);
    expect(problems).toEqual([]);
    expect(parsed).toBeDefined();
    expect(
      parsed!
        .channels()
        .all()
        .map((channel) => channel.id())
        .sort(),
    ).toEqual([...streams.map(([channel]) => channel), 'webhookDeliveries'].sort());
  });

  it('has every registered kind as a message on each channel, its payload the envelope with the kind’s own data schema', () => {
    const kinds = eventKinds();
    expect(kinds.map((kind) => kind.kind)).toContain(tested.kind);
    for (const kind of kinds) {
      const envelope = document.components.schemas[kind.kind];
      expect(envelope.properties.data, kind.kind).toEqual(JSON.parse(JSON.stringify(kind.data)));
      expect(envelope.properties.kind).toEqual({ type: 'string', const: kind.kind });
      for (const [channel] of streams) expect(document.channels[channel].messages[kind.kind]).toEqual({ $ref: `#/components/messages/${kind.kind}` });
      expect(document.channels.webhookDeliveries.messages[`webhook.${kind.kind}`]).toEqual({ $ref: `#/components/messages/webhook.${kind.kind}` });
    }
    expect(document.components.messages[tested.kind].description).toBe(
      'A widget was checked (tests). Received by the users it concerns and the administrators, and by integration keys with the `contacts` scope.',
    );
    expect(document.components.messages[`webhook.${tested.kind}`].payload).toMatchObject({
      required: ['type', 'timestamp', 'data'],
      properties: { type: { const: tested.kind }, data: { $ref: `#/components/schemas/${tested.kind}` } },
    });
    if (streams.some(([channel]) => channel === 'eventStream')) {
      expect(document.channels.eventStream.messages).toHaveProperty('reset');
      expect(document.channels.eventStream.messages).toHaveProperty('close');
    }
  });

  it('names this server’s streams, with the OpenAPI document’s security schemes and the stream ticket', async () => {
    const full = (await t.app.inject('/api/v1/openapi.json')).json();
    expect(document.info.version).toBe(openapi.info.version);
    const servers: Record<string, { server: string; protocol: string; operation: string }> = {
      eventStream: { server: 'api', protocol: 'http', operation: 'sendEventStream' },
      eventSocket: { server: 'socket', protocol: 'ws', operation: 'sendEventSocket' },
    };
    for (const [channel, path] of streams) {
      const { server, protocol, operation } = servers[channel];
      expect(document.servers[server]).toMatchObject({ host: 'pbx.test', pathname: '/api/v1', protocol });
      expect(document.channels[channel].address).toBe(path);
      const security = document.operations[operation].security!.map((scheme) => scheme.$ref.split('/').pop());
      expect(security).toEqual([...openapi.paths[path].get.security.flatMap((requirement) => Object.keys(requirement)), 'StreamTicket']);
    }
    for (const name of Object.keys(full.components.securitySchemes)) expect(document.components.securitySchemes).toHaveProperty(name);
    expect(document.components.securitySchemes.ApiKeyAuth.type).toBe('httpApiKey');
    expect(document.components.securitySchemes.StreamTicket).toMatchObject({ type: 'httpApiKey', in: 'query', name: 'ticket' });
  });

  it('is public like the OpenAPI document, which links it from its description (the docs page shows it), as the API index does', async () => {
    expect(openapi.info.description).toContain(`(${openapi.servers[0].url}/asyncapi.json)`);
    expect((await t.app.inject('/api/v1')).json().asyncapi).toBe(`${openapi.servers[0].url}/asyncapi.json`);
    // Served without a token, and the same document every time.
    expect((await t.app.inject('/api/v1/asyncapi.json')).body).toBe(raw);
  });

  it('is what `pbx-api asyncapi` prints, without a server', () => {
    const printed = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'asyncapi'], {
        env: { ...process.env, BASE_URL: 'http://pbx.test/api/v1' },
        encoding: 'utf8',
      }),
    ) as Document;
    // The same channels and kinds, but for the tests' own kinds (`test_…`), defined in this process only (and in the test files sharing it).
    expect(Object.keys(printed.channels)).toEqual(Object.keys(document.channels));
    expect(Object.keys(printed.components.messages)).toEqual(Object.keys(document.components.messages).filter((name) => !/(^|\.)test_/.test(name)));
    expect(printed.servers).toEqual(document.servers);
    // A process that builds the whole app: seconds on a busy machine.
  }, 60_000);
});
