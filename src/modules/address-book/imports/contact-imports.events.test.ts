import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../../../../test/helpers.js';
import { createUser } from '../../../../test/factories.js';
import { runImport, STANDARD_MAPPING, upload } from '../../../../test/imports.js';
import { failAfterNextPublish, storedEvents } from '../../../../test/live-events.js';

describe('live events of contact imports', () => {
  const t = useTestApp({ config: { jobWorkerEnabled: false } });

  const rows = (count: number, bad: number[] = []) =>
    'Name,E-mail,Phone\n' +
    Array.from({ length: count }, (_, i) => `Person ${i},person${i}@example.test,${bad.includes(i) ? 'no number' : `+352 621 ${100000 + i}`}`).join('\n') +
    '\n';

  it('tells the importing user of each step with the whole import, and of every chunk of 1,000 rows', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    const created = await upload(t, user.token, { name: 'people.csv', content: rows(2500, [1500]) }, { skip_on_error: '1' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    const done = await runImport(t, user.token, id);
    expect(done.status).toBe('completed_with_errors');

    const events = await storedEvents(t.ctx, user.pbxId);
    const about = [
      { type: 'contact_import', id },
      { scope: 'owners', userIds: [user.id] },
    ];
    expect(events.map((event) => [event.kind, event.subject, event.audience])).toEqual([
      ['contact_import.created', ...about],
      ['contact_import.processing', ...about],
      ...Array(3).fill(['contact_import.progress', ...about]),
      ['contact_import.completed_with_errors', ...about],
    ]);
    expect(events.map((event) => event.data)).toMatchObject([
      { id, status: 'incomplete', file_name: 'people.csv', mappings: [], webhook_url: null, skip_on_error: true, started_at: null },
      { id, status: 'processing', processed_rows: 0, total_rows: null, progress: null, mappings: STANDARD_MAPPING, started_at: done.started_at },
      { status: 'processing', processed_rows: 1000, total_rows: 2500, records_count: 1000, errors_count: 0, progress: 40 },
      { status: 'processing', processed_rows: 2000, total_rows: 2500, records_count: 1999, errors_count: 1, progress: 80 },
      { status: 'processing', processed_rows: 2500, total_rows: 2500, records_count: 2499, errors_count: 1, progress: 100 },
      {},
    ]);
    // The end: the import exactly as its GET shows it.
    const { records: _records, errors: _errors, ...read } = done;
    expect(events[5].data).toEqual(read);
  });

  it('tells of a failed import with the reason', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    const id = (await upload(t, user.token, { name: 'people.csv', content: rows(3, [1]) })).json().data.id as string;
    expect((await runImport(t, user.token, id)).status).toBe('failed');
    const events = await storedEvents(t.ctx, user.pbxId);
    expect(events.map((event) => event.kind)).toEqual(['contact_import.created', 'contact_import.processing', 'contact_import.failed']);
    expect(events[2].data).toMatchObject({
      id,
      status: 'failed',
      failure_reason: expect.stringMatching(/^1 row\(s\) are invalid/),
      completed_at: expect.any(String),
    });
  });

  it('publishes nothing when the start of processing fails after its publish: the import stays pending', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    const id = (await upload(t, user.token, { name: 'people.csv', content: rows(3) })).json().data.id as string;
    const created = await storedEvents(t.ctx, user.pbxId);
    const spy = failAfterNextPublish(t.ctx);
    try {
      await expect(runImport(t, user.token, id)).resolves.toMatchObject({ status: 'pending', processed_rows: 0 });
    } finally {
      spy.mockRestore();
    }
    expect(await storedEvents(t.ctx, user.pbxId)).toEqual(created);
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/contacts/imports/${id}`, headers: bearer(user.token) });
    expect(read.json().started_at).toBeNull();
  });
});
