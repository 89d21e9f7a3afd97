import type { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { answeredWithin, bearer, inTwoChunks, useTestApp } from '../../../../test/helpers.js';
import { createKey, createTenant, createUser } from '../../../../test/factories.js';
import { multipart, runImport, STANDARD_MAPPING, upload, workbook } from '../../../../test/imports.js';

describe('contact imports', () => {
  const t = useTestApp({ config: { jobWorkerEnabled: false, importMaxBytes: 2 * 1024 * 1024 } });

  const manager = (tenant?: { pbxId: string }) => createUser(t.ctx, { tenant, fields: { allow_manage_global_contacts: 1 } });
  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) });
  const csv = 'Name,E-mail,Phone\nAnna Weber,anna@example.test,621 100 001\n"Bert, Jr.",bert@example.test,+352 621 100 002\n';

  it('answers an upload cut short (no closing boundary) with 422 on file, however the body ended, rather than a 500 or no answer', async () => {
    const user = await manager();
    // A small body is read whole before the file part is; a larger one ends while the file is being
    // read, or in the header of a part after the file.
    const small = multipart({ name: 'contacts.csv', content: csv });
    const large = multipart({ name: 'contacts.csv', content: csv + 'Cleo Martin,cleo@example.test,621 100 003\n'.repeat(5000) });
    const cut = (body: Buffer) => body.subarray(0, body.length - 30);
    const boundary = large.headers['content-type'].split('boundary=')[1];
    const partHeaderCut = Buffer.concat([cut(large.payload), Buffer.from(`\r\n--${boundary}\r\nContent-Disp`)]);
    const send = (headers: Record<string, string>, payload: Buffer | Readable) =>
      answeredWithin(t.app.inject({ method: 'POST', url: '/api/v1/contacts/imports', headers: { ...bearer(user.token), ...headers }, payload }));
    for (const response of [await send(small.headers, cut(small.payload)), await send(large.headers, inTwoChunks(cut(large.payload), 100_000))]) {
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().errors).toEqual({ file: ['The upload ended before it was complete (its closing boundary is missing): send it again.'] });
    }
    expect((await get(user.token, '/contacts/imports')).json().data).toEqual([]);
    // Cut after the file: whether the reader saw the file end before it noticed the cut is a matter
    // of timing, so the file is taken or refused, but the request is answered.
    expect([201, 422]).toContain((await send(large.headers, inTwoChunks(partHeaderCut, 100_000))).statusCode);
  });

  it('refuses a multipart body without a boundary (415) and more than 20 fields (422 on the first one too many), keeping nothing', async () => {
    const user = await manager();
    const body = multipart({ name: 'contacts.csv', content: csv });
    for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=""']) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/v1/contacts/imports',
        headers: { ...bearer(user.token), 'content-type': contentType },
        payload: body.payload,
      });
      expect(answer.statusCode, contentType).toBe(415);
      expect(answer.json().message).toMatch(/^The multipart\/form-data content type names no boundary/);
    }
    const tooMany = 'The upload has more than 20 form fields: send at most 20 form fields beside the file parts.';
    const fields = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`field_${i}`, 'x']));
    const answer = await upload(t, user.token, { name: 'contacts.csv', content: csv }, fields);
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toEqual({ message: tooMany, errors: { field_20: [tooMany] } });
    expect((await get(user.token, '/contacts/imports')).json().data).toEqual([]);
  });

  it('refuses a NUL character in a form field or the file name (422 on it), and drops stray ones from the cells', async () => {
    const user = await manager();
    for (const [file, fields, field] of [
      [{ name: 'kon\u0000takte.csv', content: csv }, {}, 'file'],
      [{ name: 'contacts.csv', content: csv }, { delimiter: '\u0000' }, 'delimiter'],
      [{ name: 'contacts.csv', content: csv }, { enclosure: "'\u0000" }, 'enclosure'],
    ] as const) {
      const refused = await upload(t, user.token, file, fields);
      expect(refused.statusCode, field).toBe(422);
      expect(refused.json().errors, field).toEqual({ [field]: [`The ${field} field must not contain the NUL character (U+0000).`] });
    }
    const created = await upload(t, user.token, { name: 'contacts.csv', content: 'Name,E-mail,Phone\nAnna\u0000 Weber,anna.nul@example.test,621 100 011\n' });
    expect(created.statusCode).toBe(201);
    const done = await runImport(t, user.token, created.json().data.id);
    expect(done.status).toBe('completed');
    const contact = await get(user.token, `/contacts/${done.records[0].model_id}`);
    expect(contact.json().name1).toBe('Anna Weber');
  });

  it('uploads a CSV, previews it, maps, confirms and imports it', async () => {
    const user = await manager();
    const created = await upload(t, user.token, { name: 'contacts.csv', content: csv });
    expect(created.statusCode).toBe(201);
    const imp = created.json().data;
    expect(imp).toMatchObject({
      status: 'incomplete',
      file_type: 'csv',
      delimiter: ',',
      enclosure: '"',
      input_encoding: 'UTF-8',
      header_row_position: 1,
      sheet_index: null,
      can_confirm: false,
      records_count: 0,
      errors_count: 0,
      total_rows: null,
      processed_rows: 0,
      progress: null,
      mappings: [],
      skip_on_error: false,
      notify_owner_by_email: false,
      webhook_url: null,
      started_at: null,
      completed_at: null,
    });

    const preview = await get(user.token, `/contacts/imports/${imp.id}/preview`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data.columns).toEqual([
      { index: 0, name: 'Name' },
      { index: 1, name: 'E-mail' },
      { index: 2, name: 'Phone' },
    ]);
    expect(preview.json().data.rows[1]).toEqual({ row: 3, cells: ['Bert, Jr.', 'bert@example.test', '+352 621 100 002'] });

    const mapped = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/contacts/imports/${imp.id}/mappings`,
      headers: bearer(user.token),
      payload: { mappings: STANDARD_MAPPING },
    });
    expect(mapped.statusCode).toBe(200);
    expect(mapped.json().data).toMatchObject({ can_confirm: true, status: 'incomplete' });
    expect(mapped.json().data.mappings[2]).toEqual(STANDARD_MAPPING[2]);
    const confirmed = await t.app.inject({ method: 'POST', url: `/api/v1/contacts/imports/${imp.id}/confirm`, headers: bearer(user.token) });
    expect(confirmed.statusCode).toBe(202);
    expect(confirmed.json().data).toMatchObject({ status: 'pending', can_confirm: false });
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/contacts/imports/${imp.id}/confirm`, headers: bearer(user.token) })).statusCode).toBe(422);

    await t.app.jobs.drain();
    const done = (await get(user.token, `/contacts/imports/${imp.id}?include=records,errors`)).json();
    expect(done).not.toHaveProperty('data');
    expect(done).toMatchObject({ status: 'completed', records_count: 2, errors_count: 0, errors: [] });
    expect(done.started_at).not.toBeNull();
    expect(done.completed_at).not.toBeNull();
    expect(done.records).toHaveLength(2);
    expect(done.records[0]).toMatchObject({ is_new: true, was_trashed: false });
    expect((await get(user.token, `/contacts/imports/${imp.id}`)).json()).not.toHaveProperty('records');

    const contact = (await get(user.token, `/contacts/${done.records[1].model_id}`)).json();
    expect(contact).toMatchObject({ name1: 'Bert, Jr.', email: 'bert@example.test', is_private: false });
    expect(contact.numbers).toMatchObject([{ phone_number: '+352621100002', phone_number_as_typed: '+352 621 100 002', type: 'mobile', label: 'Mobile' }]);
    const lookup = await get(user.token, '/contacts/lookup?number=621100001');
    expect(lookup.json().data.map((c: { name1: string }) => c.name1)).toEqual(['Anna Weber']);

    const list = await get(user.token, '/contacts/imports');
    expect(list.json().data.map((i: { id: string }) => i.id)).toEqual([imp.id]);
  });

  it('reads Windows-1252 with semicolons, UTF-16 with tabs, and quoted fields with newlines', async () => {
    const user = await manager();
    const latin = iconv.encode(
      'Name;E-mail;Phone\nJürgen Müller;jurgen@example.test;621 200 001\nFrançoise Lefèvre;francoise@example.test;621 200 002\n',
      'windows-1252',
    );
    const a = (await upload(t, user.token, { name: 'latin.csv', content: latin })).json().data;
    expect(a).toMatchObject({ delimiter: ';', input_encoding: 'windows-1252' });
    const doneA = await runImport(t, user.token, a.id);
    expect(doneA.status).toBe('completed');
    expect((await get(user.token, `/contacts/${doneA.records[0].model_id}`)).json().name1).toBe('Jürgen Müller');
    expect((await get(user.token, `/contacts/${doneA.records[1].model_id}`)).json().name1).toBe('Françoise Lefèvre');

    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('Name\tE-mail\tPhone\nŁukasz Żółw\tlukasz@example.test\t621 200 003\n', 'utf16le')]);
    const b = (await upload(t, user.token, { name: 'utf16.txt', content: utf16 })).json().data;
    expect(b).toMatchObject({ delimiter: '\t', input_encoding: 'UTF-16LE', file_type: 'csv' });
    const doneB = await runImport(t, user.token, b.id);
    expect((await get(user.token, `/contacts/${doneB.records[0].model_id}`)).json().name1).toBe('Łukasz Żółw');

    const multiline = 'Name,Notes,Phone\n"Multi Line","first line\nsecond line, with comma",621 200 004\n"Quote ""Q"" Person","",621 200 005\n';
    const c = (await upload(t, user.token, { name: 'multi.csv', content: multiline })).json().data;
    const doneC = await runImport(t, user.token, c.id, [
      { field: 'name1', column: 0, subfields: [] },
      { field: 'notes', column: 1, subfields: [] },
      { field: 'phone_number', column: 2, subfields: [] },
    ]);
    expect(doneC.records_count).toBe(2);
    expect(doneC.records.map((r: { row: number }) => r)).toHaveLength(2);
    expect((await get(user.token, `/contacts/${doneC.records[0].model_id}`)).json().notes).toBe('first line\nsecond line, with comma');
    expect((await get(user.token, `/contacts/${doneC.records[1].model_id}`)).json().name1).toBe('Quote "Q" Person');

    const given = (
      await upload(t, user.token, { name: 'x.csv', content: 'a|b\nName|621 200 006\n' }, { delimiter: 'pipe', header_row_position: 'null' })
    ).json().data;
    expect(given).toMatchObject({ delimiter: '|', header_row_position: null });
    const preview = (await get(user.token, `/contacts/imports/${given.id}/preview`)).json().data;
    expect(preview.columns.map((c: { name: string }) => c.name)).toEqual(['Column 1', 'Column 2']);
    expect(preview.rows[0].cells).toEqual(['a', 'b']);
  });

  it('imports XLSX and XLS sheets chosen by sheet_index, reading formula results', async () => {
    const user = await manager();
    for (const type of ['xlsx', 'xls'] as const) {
      const created = await upload(t, user.token, { name: `book.${type}`, content: workbook(type) }, { sheet_index: '1' });
      expect(created.statusCode).toBe(201);
      const imp = created.json().data;
      expect(imp).toMatchObject({ file_type: type, sheet_index: 1, delimiter: null, input_encoding: null });
      const preview = (await get(user.token, `/contacts/imports/${imp.id}/preview`)).json().data;
      expect(preview.sheets).toEqual(['Notes', 'Contacts']);
      expect(preview.columns.map((c: { name: string }) => c.name)).toEqual(['Name', 'E-mail', 'Phone', 'Score']);
      expect(preview.rows[1].cells[3]).toBe('21');
      expect(preview.rows[2].cells[0]).toBe('Calculated');
      const done = await runImport(t, user.token, imp.id, [...STANDARD_MAPPING, { field: 'notes', column: 3, subfields: [] }]);
      expect(done).toMatchObject({ status: 'completed', records_count: 3 });
      const names = await Promise.all(done.records.map(async (r: { model_id: string }) => (await get(user.token, `/contacts/${r.model_id}`)).json().name1));
      expect(names).toEqual(['Sheet Person', 'Formula Person', 'Calculated']);
    }
    const missingSheet = await upload(t, user.token, { name: 'book.xlsx', content: workbook('xlsx') }, { sheet_index: '5' });
    expect(missingSheet.statusCode).toBe(422);
    expect(missingSheet.json().errors).toHaveProperty('sheet_index');
  });

  it('refuses empty files, header-only files, fake spreadsheets and binary junk with 422', async () => {
    const user = await manager();
    const cases: Array<[string, Buffer | string, string]> = [
      ['empty.csv', '', 'The file is empty.'],
      ['blank.csv', '\n\n  \n', 'The file is empty.'],
      ['header.csv', 'Name,Phone\n', 'The file contains a header but no data rows.'],
      ['fake.xlsx', 'Name,Phone\nA,1\n', 'The file is not a valid XLSX spreadsheet.'],
      ['fake.xls', 'Name,Phone\nA,1\n', 'The file is not a valid XLS spreadsheet.'],
      ['zip.xlsx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]), 'The file is not a valid XLSX spreadsheet.'],
      [
        'image.csv',
        Buffer.from([
          0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0, 0x5c, 0x72, 0xa8, 0x66, 0,
          0, 0, 1, 2, 3, 4,
        ]),
        'The file is not a CSV, XLS or XLSX file.',
      ],
    ];
    for (const [name, content, message] of cases) {
      const response = await upload(t, user.token, { name, content });
      expect(response.statusCode, name).toBe(422);
      expect(response.json().errors.file, name).toEqual([message]);
    }
    const noFile = await upload(t, user.token, null, { skip_on_error: 'true' });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().errors).toHaveProperty('file');
    const badOptions = await upload(
      t,
      user.token,
      { name: 'a.csv', content: csv },
      { header_row_position: '0', skip_on_error: 'maybe', webhook_url: 'ftp://x', colour: 'red' },
    );
    expect(badOptions.statusCode).toBe(422);
    expect(Object.keys(badOptions.json().errors).sort()).toEqual(['colour', 'header_row_position', 'skip_on_error', 'webhook_url']);
    expect((await get(user.token, '/contacts/imports')).json().data).toEqual([]);
  });

  it('refuses files above the documented size limit with 413', async () => {
    const user = await manager();
    const big = `Name,Phone\n${'x'.repeat(2 * 1024 * 1024 + 10)}\n`;
    const response = await upload(t, user.token, { name: 'big.csv', content: big });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toHaveProperty('message');
  });

  it('validates mappings', async () => {
    const user = await manager();
    const imp = (await upload(t, user.token, { name: 'c.csv', content: csv })).json().data;
    const put = (mappings: object[]) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/contacts/imports/${imp.id}/mappings`, headers: bearer(user.token), payload: { mappings } });
    const noName = await put([{ field: 'email', column: 1, subfields: [] }]);
    expect(noName.statusCode).toBe(422);
    expect(noName.json().errors).toHaveProperty('mappings');
    const outOfRange = await put([{ field: 'name1', column: 9, subfields: [] }]);
    expect(outOfRange.json().errors).toHaveProperty(['mappings.0.column']);
    const badType = await put([
      { field: 'name1', column: 0, subfields: [] },
      { field: 'phone_number', column: 2, subfields: [{ name: 'type', value: 'pager' }] },
    ]);
    expect(badType.json().errors).toHaveProperty(['mappings.1.subfields']);
    const unknownField = await put([{ field: 'password', column: 0, subfields: [] }]);
    expect(unknownField.statusCode).toBe(422);
    expect((await put([])).statusCode).toBe(422);
    const confirm = await t.app.inject({ method: 'POST', url: `/api/v1/contacts/imports/${imp.id}/confirm`, headers: bearer(user.token) });
    expect(confirm.statusCode).toBe(422);
    expect(confirm.json().errors).toHaveProperty('mappings');
  });

  it('updates existing contacts by number or e-mail and restores trashed ones', async () => {
    const user = await manager();
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/contacts', headers: bearer(user.token), payload }).then((r) => r.json().data);
    const byNumber = await post({ name1: 'Old Name', company_name: 'Kept Co', contactPhoneNumbers: [{ phone_number: '+352 621 300 001', type: 'work' }] });
    const trashed = await post({ name1: 'Trashed', email: 'Trash@Example.test' });
    await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/${trashed.id}`, headers: bearer(user.token) });
    const file =
      'Name,E-mail,Phone\nNew Name,,00352 621 300 001\nBack Again,trash@example.test,621 300 002\nFresh,fresh@example.test,621 300 003\nFresh Twin,FRESH@example.test,\n';
    const imp = (await upload(t, user.token, { name: 'm.csv', content: file })).json().data;
    const done = await runImport(t, user.token, imp.id);
    expect(done.records).toEqual([
      { model_id: byNumber.id, is_new: false, was_trashed: false },
      { model_id: trashed.id, is_new: false, was_trashed: true },
      { model_id: expect.any(String), is_new: true, was_trashed: false },
      { model_id: done.records[2].model_id, is_new: false, was_trashed: false },
    ]);
    const updated = (await get(user.token, `/contacts/${byNumber.id}`)).json();
    expect(updated).toMatchObject({ name1: 'New Name', company_name: 'Kept Co' });
    expect(updated.numbers).toHaveLength(1);
    const restored = (await get(user.token, `/contacts/${trashed.id}`)).json();
    expect(restored).toMatchObject({ name1: 'Back Again', deleted_at: null });
    expect(restored.numbers.map((n: { phone_number: string }) => n.phone_number)).toEqual(['+352621300002']);
    expect((await get(user.token, `/contacts/${done.records[2].model_id}`)).json().name1).toBe('Fresh Twin');
  });

  it('fails the whole import on one invalid row without skip_on_error, keeps valid rows with it', async () => {
    const user = await manager();
    const file =
      'Name,E-mail,Phone\nGood One,good1@example.test,621 400 001\n,nameless@example.test,621 400 002\nBad Phone,bad@example.test,12\nGood Two,good2@example.test,621 400 003\n';
    const strict = (await upload(t, user.token, { name: 's.csv', content: file })).json().data;
    const failed = await runImport(t, user.token, strict.id);
    expect(failed).toMatchObject({ status: 'failed', records_count: 0, errors_count: 2, records: [], total_rows: 4, processed_rows: 0, progress: 0 });
    expect(failed.failure_reason).toContain('skip_on_error');
    expect(failed.errors).toEqual([
      {
        row: 3,
        attribute: 'name1',
        messages: ['The name1 field is required.'],
        row_data: { Name: '', 'E-mail': 'nameless@example.test', Phone: '621 400 002' },
      },
      {
        row: 4,
        attribute: 'phone_number',
        messages: ['The phone number "12" is not a valid phone number.'],
        row_data: { Name: 'Bad Phone', 'E-mail': 'bad@example.test', Phone: '12' },
      },
    ]);
    expect((await get(user.token, '/contacts?search=good')).json().data).toEqual([]);

    const lenient = (await upload(t, user.token, { name: 's.csv', content: file }, { skip_on_error: 'true' })).json().data;
    const partial = await runImport(t, user.token, lenient.id);
    expect(partial).toMatchObject({
      status: 'completed_with_errors',
      records_count: 2,
      errors_count: 2,
      skip_on_error: true,
      total_rows: 4,
      processed_rows: 4,
      progress: 100,
    });
    expect(partial.errors.map((e: { row: number }) => e.row)).toEqual([3, 4]);
    expect((await get(user.token, '/contacts?search=good')).json().data).toHaveLength(2);
  });

  it('imports private contacts for a user without the global-contacts right, and can map groups', async () => {
    const boss = await manager();
    const user = await createUser(t.ctx, { tenant: boss.tenant });
    const group = (await t.app.inject({ method: 'POST', url: '/api/v1/contact-groups', headers: bearer(boss.token), payload: { name: 'Partners' } })).json()
      .data;
    const imp = (await upload(t, user.token, { name: 'p.csv', content: 'Name,Group\nMy Friend,partners\n' })).json().data;
    const done = await runImport(t, user.token, imp.id, [
      { field: 'name1', column: 0, subfields: [] },
      { field: 'group', column: 1, subfields: [] },
    ]);
    expect(done.status).toBe('completed');
    const contact = (await get(user.token, `/contacts/${done.records[0].model_id}`)).json();
    expect(contact).toMatchObject({ is_private: true, private_owner_id: user.id, editable: true });
    expect(contact.groups.map((g: { id: string }) => g.id)).toEqual([group.id]);
    expect((await get(boss.token, `/contacts/${contact.id}`)).statusCode).toBe(403);
  });

  it('hides imports from other users and tenants (404) and refuses API keys (403)', async () => {
    const user = await manager();
    const imp = (await upload(t, user.token, { name: 'c.csv', content: csv })).json().data;
    const colleague = await createUser(t.ctx, { tenant: user.tenant, role: 'admin' });
    const stranger = await manager();
    for (const other of [colleague, stranger]) {
      for (const [method, url, payload] of [
        ['GET', `/api/v1/contacts/imports/${imp.id}`, undefined],
        ['GET', `/api/v1/contacts/imports/${imp.id}/preview`, undefined],
        ['PUT', `/api/v1/contacts/imports/${imp.id}/mappings`, { mappings: STANDARD_MAPPING }],
        ['POST', `/api/v1/contacts/imports/${imp.id}/confirm`, undefined],
        ['DELETE', `/api/v1/contacts/imports/${imp.id}`, undefined],
      ] as const) {
        const response = await t.app.inject({ method, url, headers: bearer(other.token), ...(payload ? { payload } : {}) });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({ message: ['Contact import not found.'] });
      }
      expect((await get(other.token, '/contacts/imports')).json().data).toEqual([]);
    }
    const key = await createKey(t.ctx, user.tenant, 'integration', ['contacts']);
    expect((await get(key, `/contacts/imports/${imp.id}`)).statusCode).toBe(403);
    expect((await get(key, '/contacts/imports')).statusCode).toBe(403);
    expect((await get(user.token, `/contacts/imports/${imp.id}?include=contacts`)).statusCode).toBe(422);
    expect((await get(user.token, '/contacts/imports/not-a-uuid')).statusCode).toBe(422);
    void createTenant;
  });

  it('deletes an import with its records, errors and file; contacts stay', async () => {
    const user = await manager();
    const imp = (await upload(t, user.token, { name: 'c.csv', content: `${csv}Broken,,1\n` }, { skip_on_error: '1' })).json().data;
    const file = () => t.ctx.db.selectFrom('contact_import_files').select('import_id').where('import_id', '=', imp.id).execute();
    expect(await file()).toHaveLength(1);
    const done = await runImport(t, user.token, imp.id);
    expect(done.errors_count).toBe(1);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/imports/${imp.id}`, headers: bearer(user.token) });
    expect(del.statusCode).toBe(204);
    expect(await file()).toEqual([]);
    expect((await get(user.token, `/contacts/imports/${imp.id}`)).statusCode).toBe(404);
    expect(await t.ctx.db.selectFrom('contact_import_records').select('id').where('import_id', '=', imp.id).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('contact_import_errors').select('id').where('import_id', '=', imp.id).execute()).toEqual([]);
    expect((await get(user.token, `/contacts/${done.records[0].model_id}`)).statusCode).toBe(200);
    // An incomplete one can be deleted too.
    const incomplete = (await upload(t, user.token, { name: 'c.csv', content: csv })).json().data;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/imports/${incomplete.id}`, headers: bearer(user.token) })).statusCode).toBe(204);
  });

  it('e-mails the owner when asked', async () => {
    const user = await manager();
    const imp = (await upload(t, user.token, { name: 'mail.csv', content: csv }, { notify_owner_by_email: 'true' })).json().data;
    await runImport(t, user.token, imp.id);
    await t.app.jobs.drain();
    const mail = t.mailer.last(user.email);
    expect(mail?.subject).toBe('Contact import completed');
    expect(mail?.text).toContain('Contacts imported: 2');
  });

  it('imports a 10,000-row file', async () => {
    const user = await manager();
    const lines = ['Name,E-mail,Phone'];
    for (let i = 0; i < 10_000; i++) lines.push(`Person ${i},p${i}@bulk.example,+352 691 ${String(100000 + i)}`);
    const imp = (await upload(t, user.token, { name: 'bulk.csv', content: `${lines.join('\n')}\n` })).json().data;
    const done = await runImport(t, user.token, imp.id);
    expect(done).toMatchObject({ status: 'completed', records_count: 10_000, errors_count: 0 });
    const count = await t.ctx.db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('pbx_id', '=', user.pbxId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10_000);
  }, 60_000);
});
