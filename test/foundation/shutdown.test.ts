import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers.js';
import { createUser } from '../factories.js';

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, refuses new connections, then closes', async () => {
    const t = await buildTestApp();
    const user = await createUser(t.ctx);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const body = JSON.stringify({ email: user.email, password: user.password });

    // A keep-alive client, like Node's global agent, which would hold its idle connection (and so
    // the server's close) for its 5 s timeout; this one lets go once it has its answer.
    const agent = new Agent({ keepAlive: true });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          path: '/api/v1/login',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10)); // the request is in flight: headers and part of the body sent
      setTimeout(() => req.end(body.slice(10)), 150);
    });

    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = t.close();
    const response = await answer;
    agent.destroy();
    await closing;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).data.token).toMatch(/^pbxu_/);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
