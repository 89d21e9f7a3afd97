import { randomUUID } from 'node:crypto';
import type { DemoSeeder } from '../../platform/demo-seeder.js';
import { toE164 } from './contacts/phone.js';

/**
 * Address-book demo rows: a contact group, global contacts (one grouped, one favorite of the
 * admin, one blocked), a private contact of the first user, and a finished import with errors.
 */
export const seedAddressBook: DemoSeeder = async (ctx, tenant) => {
  const { db } = ctx;
  const now = ctx.clock.now().toISOString();
  const [owner] = tenant.users.filter((u) => u.id !== tenant.admin.id);
  const local =
    tenant.countryCode === 'DE' ? ['030 1234567', '030 7654321', '0151 12345678', '030 5550100'] : ['621 123 456', '26 12 34 56', '691 234 567', '27 00 11 22'];

  const groupId = randomUUID();
  await db
    .insertInto('contact_groups')
    .values({
      id: groupId,
      pbx_id: tenant.pbxId,
      name: 'Suppliers',
      description: 'Companies we buy from',
      default_internal_call_flow_id: null,
      default_external_call_flow_id: null,
      extension_id_shown_outside_the_group: null,
      default_caller_identity_id: null,
      external_uid: null,
      allow_call_pickups: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db.insertInto('contact_group_users').values({ group_id: groupId, user_id: tenant.admin.id }).execute();

  const contact = async (
    name1: string,
    name2: string | null,
    company: string | null,
    number: string,
    privateOwner: string | null,
    extra: { blocked?: boolean; email?: string } = {},
  ) => {
    const id = randomUUID();
    await db
      .insertInto('contacts')
      .values({
        id,
        pbx_id: tenant.pbxId,
        name1,
        name2,
        email: extra.email ?? null,
        email_normalized: extra.email?.toLowerCase() ?? null,
        company_name: company,
        department: null,
        job_title: null,
        notes: null,
        private_owner_id: privateOwner,
        is_blocked_globally: extra.blocked ? 1 : 0,
        handling_strategy: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('contact_numbers')
      .values({
        id: randomUUID(),
        contact_id: id,
        pbx_id: tenant.pbxId,
        phone_number_raw: number,
        phone_number: toE164(number, tenant.countryCode) ?? number,
        label: 'Office',
        type: 'work',
        speed_dial: null,
        position: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  };

  const globalId = await contact('Becker', 'Anna', 'Nordwerk Supplies', local[0], null, { email: 'anna.becker@nordwerk.example' });
  await db.insertInto('contact_group_members').values({ group_id: groupId, contact_id: globalId }).execute();
  await db.insertInto('contact_favorites').values({ contact_id: globalId, user_id: tenant.admin.id, created_at: now }).execute();
  const privateId = await contact('Private', 'Dentist', null, local[1], owner.id);
  const blockedId = await contact('Cold Calls', null, 'Telemarketing Ltd', local[2], null, { blocked: true });
  await db.insertInto('contact_blocks').values({ contact_id: blockedId, user_id: owner.id, created_at: now }).execute();
  const importedId = await contact('Imported', 'Ida', 'Import GmbH', local[3], null, { email: 'ida@import.example' });

  const importId = randomUUID();
  await db
    .insertInto('contact_imports')
    .values({
      id: importId,
      pbx_id: tenant.pbxId,
      user_id: tenant.admin.id,
      status: 'completed_with_errors',
      file_type: 'csv',
      original_name: 'suppliers.csv',
      stored_path: null,
      file_size: 96,
      records_count: 1,
      errors_count: 1,
      processed_rows: 2,
      header_row_position: 1,
      sheet_index: null,
      delimiter: ';',
      enclosure: '"',
      input_encoding: 'UTF-8',
      skip_on_error: 1,
      notify_owner_by_email: 0,
      webhook_url: null,
      mappings: JSON.stringify([
        { field: 'name1', column: 0, subfields: [] },
        { field: 'email', column: 1, subfields: [] },
        { field: 'phone_number', column: 2, subfields: [{ name: 'type', value: 'work' }] },
      ]),
      columns: JSON.stringify(['Name', 'E-mail', 'Phone']),
      failure_reason: null,
      created_at: now,
      updated_at: now,
      started_at: now,
      completed_at: now,
    })
    .execute();
  await db
    .insertInto('contact_import_records')
    .values({ id: randomUUID(), import_id: importId, row: 2, model_id: importedId, is_new: 1, was_trashed: 0 })
    .execute();
  await db
    .insertInto('contact_import_errors')
    .values({
      id: randomUUID(),
      import_id: importId,
      row: 3,
      attribute: 'phone_number',
      messages: JSON.stringify(['The phone number "12" is not a valid phone number.']),
      row_data: JSON.stringify({ Name: 'Broken Row', 'E-mail': 'broken@example.test', Phone: '12' }),
    })
    .execute();

  return { contact: globalId, private_contact: privateId, contact_group: groupId, contact_import: importId, blocked_contact: blockedId };
};
