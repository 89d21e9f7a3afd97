import { Type } from '@sinclair/typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Config } from '../config.js';
import { finishDocument } from './openapi-document.js';
import { documentConditionalRequests } from './conditional-requests.js';
import { registerAsyncApi } from './asyncapi.js';

const describe = (baseUrl: string) => `Multi-tenant telephony PBX management API.

Every request carries \`Authorization: Bearer <token>\` (the internal key may be sent bare).
Errors: 401 \`{error}\`, 403 \`{message}\`, 404 \`{message: [..]}\`, 422 \`{message, errors}\`,
429 with \`Retry-After\`. Every response carries \`X-RateLimit-Limit\` and \`X-RateLimit-Remaining\`
(plus the IETF draft \`RateLimit\` and \`RateLimit-Policy\` fields). Lists are paginated with at most
100 items a page. Boolean query parameters take \`true\`/\`false\` or \`1\`/\`0\`. Answers of routes that need
credentials, and of the sign-ins that return a token, carry \`Cache-Control: no-store\`.

Live events (Server-Sent Events, WebSocket, webhook subscriptions) are described by the AsyncAPI 3.0
document: [${baseUrl}/asyncapi.json](${baseUrl}/asyncapi.json).`;

const API_VERSION = '0.1.0';
const CONTACT = { name: 'pbx-api maintainers (see the project README)' };

const ApiIndex = Type.Object({ name: Type.String(), version: Type.String(), docs: Type.String(), openapi: Type.String(), asyncapi: Type.String() });

/**
 * This server first (the docs page's "Try it out" calls it), then the other deployments the
 * operator lists in API_SERVERS (the contract's production, staging and development servers).
 */
export function serversOf(config: Pick<Config, 'baseUrl' | 'apiServers'>): Array<{ url: string; name?: string; description: string }> {
  const own = config.apiServers.find((server) => server.url === config.baseUrl);
  return [
    own ? { url: own.url, name: own.name, description: `${own.name} (this server)` } : { url: config.baseUrl, description: 'This server' },
    ...config.apiServers.filter((server) => server !== own).map((server) => ({ url: server.url, name: server.name, description: server.name })),
  ];
}

/** OpenAPI 3.2 built from the route schemas, served at /openapi.json, with a docs page at /docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config, prefix: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.2.0',
      info: {
        title: 'pbx-api',
        version: API_VERSION,
        description: describe(config.baseUrl),
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // The server's address ends in /api/v1 (the contract's {base_url}), so paths are the contract's own (`/login`, `/me`).
      servers: serversOf(config),
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'User token from POST /login, a magic link or a one-time code (prefix pbxu_).' },
          PbxApiKey: { type: 'http', scheme: 'bearer', description: 'The PBX API key used by the customer PBX server (prefix pbxk_).' },
          IntegrationApiKey: { type: 'http', scheme: 'bearer', description: 'Integration API key limited to its scopes (prefix pbxi_).' },
          ApiKeyAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'Internal key of one PBX, sent as the Authorization header value (prefix pbxn_).',
          },
          PbxServerAuth: { type: 'http', scheme: 'bearer', description: 'Internal PBX server key (prefix pbxs_).' },
        },
      },
    },
    stripBasePath: false,
    transform: ({ schema, url }) => ({ schema, url: url.startsWith(`${prefix}/`) ? url.slice(prefix.length) : url }),
    transformObject: (documents) =>
      finishDocument(documentConditionalRequests((documents as { openapiObject: Record<string, unknown> }).openapiObject), CONTACT),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });

  app.get(`${prefix}/openapi.json`, { schema: { hide: true }, config: { auth: { public: true } } }, async () => app.swagger());
  // The server's root and the API's own address lead to the docs and the document rather than to a 404.
  app.get('/', { schema: { hide: true }, config: { auth: { public: true } } }, async (_request, reply) => reply.redirect(`${prefix}/docs`));
  app.get(prefix, { schema: { hide: true, response: { 200: ApiIndex } }, config: { auth: { public: true } } }, async () => ({
    name: 'pbx-api',
    version: API_VERSION,
    docs: `${config.baseUrl}/docs`,
    openapi: `${config.baseUrl}/openapi.json`,
    asyncapi: `${config.baseUrl}/asyncapi.json`,
  }));
  registerAsyncApi(app, config, prefix);

  // The page's files are read where the package is installed: the plugin's own default is beside its
  // code, which the production build bundles elsewhere (scripts/bundle.mjs).
  const pageFiles = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')), 'static');
  await app.register(swaggerUi, {
    routePrefix: `${prefix}/docs`,
    baseDir: pageFiles,
    logo: { type: 'image/svg+xml', content: readFileSync(join(pageFiles, 'logo.svg')) },
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // Its content security policy is set with the other security headers (security-headers.ts).
    staticCSP: false,
  });
}
