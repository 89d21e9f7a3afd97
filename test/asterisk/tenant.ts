/**
 * What the real-Asterisk tests do with the API: call it as a principal, and point a tenant's
 * engine at an instance (the README's AMI user, the tenant's own context by default) and push.
 */
import { expect } from 'vitest';
import { bearer, type TestApp } from '../helpers.js';
import type { AsteriskInstance } from './harness.js';

/**
 * Test-only callers for `channel originate <channel> extension <exten>@pbxapi-test-caller` (pass as
 * `extraDialplan`): `press2` presses 2 once the far side answered (an IVR), `listen` stays 8 s,
 * `linger` 16 s (long enough for a queue's member retries).
 */
export const TEST_CALLERS = `[pbxapi-test-caller]
exten => press2,1,Wait(2)
same => n,SendDTMF(2)
same => n,Wait(4)
same => n,Hangup()
exten => listen,1,Wait(8)
same => n,Hangup()
exten => linger,1,Wait(16)
same => n,Hangup()
`;

export const asteriskApi = (app: () => TestApp) => (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token: string, payload?: object) =>
  app().app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

/** Points the tenant's engine at `target`, pushes past the one-a-minute gate, runs the job; answers the push. */
export async function pushTo(t: TestApp, token: string, target: AsteriskInstance, settings: Record<string, unknown> = {}) {
  const api = asteriskApi(() => t);
  // Past the one-a-minute gate; and the saved settings get a time of their own (the event hub
  // restarts a PBX's listener when its settings' updated_at changes).
  t.clock.advance(61);
  const saved = await api('PUT', '/pbx-engine/settings', token, {
    host: '127.0.0.1',
    port: target.amiPort,
    username: target.amiUser,
    secret: target.amiSecret,
    ...settings,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const queued = await api('POST', '/pbx/configuration/push', token);
  expect(queued.statusCode, queued.body).toBe(202);
  await t.app.jobs.drain();
  return (await api('GET', `/pbx/configuration/pushes/${queued.json().data.id}`, token)).json().data;
}
