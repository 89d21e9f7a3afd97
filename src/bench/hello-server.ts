/**
 * The bare baseline: a `node:http` hello world answering every request with one fixed JSON body
 * (BODY_BYTES long, to match the endpoint under test). Run as its own child process by baseline.ts.
 */
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const bodyBytes = Math.max(40, Number(process.env.BODY_BYTES ?? 400));

function makeBody(size: number): Buffer {
  const skeleton = { message: 'Hello world.', data: { hello: 'world', padding: '' } };
  const room = size - Buffer.byteLength(JSON.stringify(skeleton));
  skeleton.data.padding = 'x'.repeat(Math.max(0, room));
  return Buffer.from(JSON.stringify(skeleton));
}

const body = makeBody(bodyBytes);
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});

server.listen(port, host, () => {
  const address = server.address();
  process.stdout.write(`hello-server listening on ${typeof address === 'object' && address ? address.port : port}\n`);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
