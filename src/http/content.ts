import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ClientError } from '../platform/errors.js';

/** Media types a route answers with: JSON, or what its response schemas declare (downloads). */
function producedMediaTypes(request: FastifyRequest): string[] {
  const responses = (request.routeOptions.schema?.response ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  const declared = Object.values(responses).flatMap((response) => Object.keys(response?.content ?? {}));
  return ['application/json', ...declared];
}

/** Whether an Accept header admits one of the media types (wildcards on either side, q=0 refuses). */
export function acceptsAny(accept: string, produced: string[]): boolean {
  return accept.split(',').some((entry) => {
    const [range, ...params] = entry.trim().toLowerCase().split(';');
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p))) return false;
    const [type, subtype] = range.trim().split('/');
    return produced.some((media) => {
      const [mType, mSubtype] = media.split('/');
      const typeMatches = type === '*' || mType === '*' || type === mType;
      const subtypeMatches = subtype === '*' || mSubtype === '*' || subtype === mSubtype || (mSubtype === 'json' && subtype?.endsWith('+json'));
      return typeMatches && subtypeMatches;
    });
  });
}

/**
 * JSON in, JSON out: only application/json bodies are parsed (415 otherwise; multipart where a
 * module registers it), and every response names its request id. Register first.
 */
export function registerContentRules(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

/**
 * An `accept` header that rules out everything the route produces is answered with 406. Register
 * after the rate limits, so that this answer too is counted and carries their headers.
 */
export function registerAcceptCheck(app: FastifyInstance, apiPrefix: string): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const accept = request.headers.accept;
    if (!accept || !request.url.startsWith(apiPrefix) || request.url.startsWith(`${apiPrefix}/docs`)) return done();
    if (!acceptsAny(accept, producedMediaTypes(request))) return done(new ClientError(406, 'Not Acceptable: this endpoint answers with application/json.'));
    done();
  });
}
