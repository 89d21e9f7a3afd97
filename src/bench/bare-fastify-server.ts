/**
 * The start-up baseline: a bare Fastify app with one route, started as its own process by the
 * start-up step, so the API's cold start reads as a ratio to what Fastify itself needs.
 */
import Fastify from 'fastify';

const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });

const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
