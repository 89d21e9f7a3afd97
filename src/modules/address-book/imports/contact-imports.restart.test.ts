import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, useTestApp } from '../../../../test/helpers.js';
import { createUser } from '../../../../test/factories.js';
import { claimJob, type RunningJob } from '../../../platform/jobs/jobs.js';
import { ImportProcessor } from './contact-imports.processor.js';
import { STANDARD_MAPPING, upload } from '../../../../test/imports.js';

describe('contact import restart safety', () => {
  const t = useTestApp({ config: { jobWorkerEnabled: false, jobLeaseSeconds: 60 } });

  it('resumes an import whose worker died mid-way and imports every row exactly once', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    const lines = ['Name,E-mail,Phone'];
    for (let i = 0; i < 2500; i++) lines.push(`Person ${i},p${i}@restart.example,+352 691 ${String(200000 + i)}`);
    const imp = (await upload(t, user.token, { name: 'big.csv', content: `${lines.join('\n')}\n` })).json().data;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/contacts/imports/${imp.id}/mappings`,
      headers: bearer(user.token),
      payload: { mappings: STANDARD_MAPPING },
    });
    await t.app.inject({ method: 'POST', url: `/api/v1/contacts/imports/${imp.id}/confirm`, headers: bearer(user.token) });

    // A worker claims the job, commits its first chunk, then its process dies.
    const now = t.clock.now();
    const claimed = await claimJob(t.ctx.db, t.ctx.dialect, 'doomed-instance', now.toISOString(), new Date(now.getTime() + 60_000).toISOString());
    expect(claimed?.kind).toBe('contact_import.process');
    const dying: RunningJob = {
      id: claimed!.id,
      attempt: 1,
      workerId: 'doomed-instance',
      signal: new AbortController().signal,
      heartbeat: async () => {
        throw new Error('power cut');
      },
    };
    await expect(new ImportProcessor(t.ctx, dying).run(imp.id)).rejects.toThrow('power cut');
    const halfway = await t.ctx.db.selectFrom('contact_imports').selectAll().where('id', '=', imp.id).executeTakeFirstOrThrow();
    expect(halfway).toMatchObject({ status: 'processing', processed_rows: 1000, records_count: 1000, total_rows: 2500 });
    const shown = (await t.app.inject({ method: 'GET', url: `/api/v1/contacts/imports/${imp.id}`, headers: bearer(user.token) })).json();
    expect(shown).toMatchObject({ status: 'processing', total_rows: 2500, processed_rows: 1000, progress: 40 });

    // While the lease holds nobody touches it; once it expires another worker resumes.
    expect(await t.app.jobs.drain()).toBe(0);
    t.clock.advance(61);
    await t.app.jobs.drain();

    const done = (await t.app.inject({ method: 'GET', url: `/api/v1/contacts/imports/${imp.id}?include=records`, headers: bearer(user.token) })).json();
    expect(done).toMatchObject({ status: 'completed', records_count: 2500, errors_count: 0, total_rows: 2500, processed_rows: 2500, progress: 100 });
    expect(new Set(done.records.map((r: { model_id: string }) => r.model_id)).size).toBe(2500);
    expect(done.records.every((r: { is_new: boolean }) => r.is_new)).toBe(true);
    const contacts = await t.ctx.db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('pbx_id', '=', user.pbxId)
      .executeTakeFirstOrThrow();
    expect(Number(contacts.n)).toBe(2500);
    const job = await t.ctx.db.selectFrom('jobs').selectAll().where('id', '=', claimed!.id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('marks an import failed when its job runs out of attempts', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    const imp = (await upload(t, user.token, { name: 'c.csv', content: 'Name\nSolo\n' })).json().data;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/contacts/imports/${imp.id}/mappings`,
      headers: bearer(user.token),
      payload: { mappings: [{ field: 'name1', column: 0, subfields: [] }] },
    });
    await t.app.inject({ method: 'POST', url: `/api/v1/contacts/imports/${imp.id}/confirm`, headers: bearer(user.token) });
    // The stored file vanished: every attempt fails.
    await t.ctx.db.deleteFrom('contact_import_files').where('import_id', '=', imp.id).execute();
    for (let i = 0; i < 4; i++) {
      await t.app.jobs.drain();
      t.clock.advance(60);
    }
    const done = (await t.app.inject({ method: 'GET', url: `/api/v1/contacts/imports/${imp.id}`, headers: bearer(user.token) })).json();
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'failed' });
    expect(done.failure_reason).toContain('no longer available');
  });

  it('is processed by another instance, whose disk never saw the file: the file lives in the database', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    const lines = ['Name,E-mail,Phone'];
    for (let i = 0; i < 300; i++) lines.push(`Elsewhere ${i},e${i}@elsewhere.example,+352 691 ${String(500000 + i)}`);
    const imp = (await upload(t, user.token, { name: 'elsewhere.csv', content: `${lines.join('\n')}\n` })).json().data;
    const uploads = join(t.ctx.config.dataDir, 'imports');
    expect(existsSync(uploads) ? readdirSync(uploads).filter((name) => name.includes(imp.id)) : []).toEqual([]);
    expect(await t.ctx.db.selectFrom('contact_imports').select('stored_path').where('id', '=', imp.id).executeTakeFirstOrThrow()).toEqual({
      stored_path: null,
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/contacts/imports/${imp.id}/mappings`,
      headers: bearer(user.token),
      payload: { mappings: STANDARD_MAPPING },
    });
    const preview = await t.app.inject({ method: 'GET', url: `/api/v1/contacts/imports/${imp.id}/preview`, headers: bearer(user.token) });
    expect(preview.statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: `/api/v1/contacts/imports/${imp.id}/confirm`, headers: bearer(user.token) });

    const other = await buildTestApp({
      database: { db: t.ctx.db, dialect: t.ctx.dialect, close: async () => undefined },
      clock: t.clock,
      env: { DATA_DIR: `/tmp/pbx-api-other-instance-${process.pid}` },
      config: { jobWorkerEnabled: false },
    });
    try {
      await other.app.jobs.drain();
    } finally {
      await other.close();
    }
    const done = (await t.app.inject({ method: 'GET', url: `/api/v1/contacts/imports/${imp.id}`, headers: bearer(user.token) })).json();
    expect(done).toMatchObject({ status: 'completed', records_count: 300, total_rows: 300, progress: 100 });
  });
});
