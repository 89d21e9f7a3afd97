import type { FastifyInstance } from 'fastify';
import { ClientError } from './errors.js';

const ACCEPTABLE = /(^|,)\s*(\*\/\*|application\/\*|application\/json|application\/[a-z.+-]*\+json)\s*(;|,|$)/i;

/**
 * JSON in, JSON out: only application/json bodies are parsed (415 otherwise), an `accept` header
 * that rules out JSON is answered with 406, and every response names its request id.
 */
export function registerContentRules(app: FastifyInstance, apiPrefix: string): void {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const accept = request.headers.accept;
    if (accept && request.url.startsWith(apiPrefix) && !request.url.startsWith(`${apiPrefix}/docs`) && !ACCEPTABLE.test(accept)) {
      throw new ClientError(406, 'Not Acceptable: this API answers with application/json.');
    }
  });
}
