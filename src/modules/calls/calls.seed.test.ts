import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../../../test/helpers.js';
import { seedDemo } from '../../demo-seed.js';
import { issueUserToken } from '../../platform/auth/tokens.js';

const DATA_DIR = `/tmp/pbx-api-cdrs-seed-${process.pid}-${randomUUID().slice(0, 8)}`;

describe('call history demo seed', () => {
  // Registered before useTestApp(), so it runs after the app is closed (after-hooks run in reverse).
  afterAll(() => {
    rmSync(DATA_DIR, { recursive: true, force: true });
  });
  const t = useTestApp({ env: { DATA_DIR, JOB_WORKER: 'false', AMI_EVENTS: 'false' } });

  it('publishes a call, a recorded call and its playable recording for each tenant', async () => {
    const { seed } = await seedDemo(t.ctx);
    for (const tenant of seed.tenants) {
      const {
        cdr,
        cdr_with_recording: recordedId,
        recording_path: path,
      } = tenant.samples as { cdr: number; cdr_with_recording: number; recording_path: string };
      const member = tenant.users[1];
      const token = await issueUserToken(t.ctx.db, t.ctx.clock, { id: member.id, pbx_id: tenant.pbx_id }, { name: 'test', ttlSeconds: 3600 });
      const adminToken = await issueUserToken(t.ctx.db, t.ctx.clock, { id: tenant.admin.id, pbx_id: tenant.pbx_id }, { name: 'test', ttlSeconds: 3600 });
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${cdr}`, headers: bearer(adminToken) })).statusCode).toBe(200);
      const detail = await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${recordedId}`, headers: bearer(token) });
      expect(detail.statusCode).toBe(200);
      expect(detail.json().data.recording_file.path).toBe(path);
      const file = await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, headers: bearer(token) });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('audio/wav');
      expect(file.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
      const history = await t.app.inject({ method: 'GET', url: '/api/v1/cdrs?perPage=100', headers: bearer(adminToken) });
      const kinds = new Set(
        history
          .json()
          .data.flatMap((c: { status: string; is_internal: boolean; is_transfer_call: boolean }) => [
            c.status,
            c.is_internal ? 'internal' : 'external',
            c.is_transfer_call ? 'transfer' : 'direct',
          ]),
      );
      for (const kind of ['answered', 'missed', 'internal', 'external', 'transfer']) expect(kinds).toContain(kind);
      const conference = await t.ctx.db.selectFrom('cdrs').select('cdr_id').where('pbx_id', '=', tenant.pbx_id).where('is_conference_call', '=', 1).execute();
      expect(conference.length).toBeGreaterThan(0);
    }
  });
});
