import { randomBytes } from 'node:crypto';
import type { DemoSeeder } from '../../platform/demo-seeder.js';
import type { Principal } from '../../platform/auth/principal.js';
import { CallerIdentitiesService } from './caller-identities/caller-identities.service.js';
import { DndService } from './dnd/dnd.service.js';
import { ExtensionsService } from './extensions/extensions.service.js';
import { ForwardsService } from './forwards/forwards.service.js';
import { PhoneButtonsService } from './phone-buttons/phone-buttons.service.js';
import { PhoneNumbersService } from './phone-numbers/phone-numbers.service.js';
import { PushDevicesService } from './push-devices/push-devices.service.js';
import { SipDevicesService } from './sip-devices/sip-devices.service.js';
import { TwinningsService } from './twinnings/twinnings.service.js';
import { UserGroupsService } from './user-groups/user-groups.service.js';
import { findUser } from './users/users.queries.js';
import { WebrtcService } from './webrtc/webrtc.service.js';

/** Numbers that are valid in each demo country's plan (written as a local would dial them). */
const NUMBERS: Record<string, { main: string; mobile: string; backup: string; provisioned: string; external: string }> = {
  LU: { main: '27 12 34 00', mobile: '691 123 456', backup: '621 123 456', provisioned: '661 234 567', external: '26 12 34 56' },
  DE: { main: '030 1234567', mobile: '0151 23456789', backup: '0170 1234567', provisioned: '0160 9876543', external: '089 1234567' },
};

/**
 * The directory of one demo tenant, created through the same services the API uses: an extension
 * per person, a desk phone with programmed keys, the main number with caller identities, a manual
 * and a provisioned twinning, DND rules, forwards, a group, a push device and a WebRTC account.
 */
export const seedDirectory: DemoSeeder = async (ctx, demo) => {
  const tenant = { pbxId: demo.pbxId };
  const numbers = NUMBERS[demo.countryCode] ?? NUMBERS.LU;
  const admin: Principal = { kind: 'user', id: 'demo-seed', userId: demo.admin.id, pbxId: demo.pbxId, role: 'admin', tokenId: 'demo-seed', rateLimit: null };
  const provisioning: Principal = { kind: 'pbx', id: 'demo-seed', pbxId: demo.pbxId, rateLimit: null };
  const [, first, second] = demo.users;
  const people = demo.users;

  const extensionsService = new ExtensionsService(ctx);
  const extensions = [];
  for (const [index, person] of people.entries()) {
    extensions.push(await extensionsService.create(tenant, { number: String(201 + index), name: person.email.split('@')[0], user_id: person.id }));
  }

  const { row: desk } = await new SipDevicesService(ctx).create(tenant, {
    name: 'Front desk phone',
    model: 'yealink-t54w',
    mac_address: randomBytes(6).toString('hex'),
    transport: 'tls',
    codecs: ['opus', 'g722', 'pcma'],
    user_id: first.id,
    extension_id: extensions[1].id,
  });
  const buttons = new PhoneButtonsService(ctx);
  await buttons.create(tenant, admin, first.id, { sip_device_id: desk.id, position: 1, type: 'line', label: 'Line' });
  const blf = await buttons.create(tenant, admin, first.id, {
    sip_device_id: desk.id,
    position: 2,
    type: 'blf',
    value: extensions[2].number,
    label: 'Colleague',
  });
  await buttons.create(tenant, admin, first.id, { sip_device_id: desk.id, position: 3, type: 'speed_dial', value: '112', label: 'Emergency' });

  const main = await new PhoneNumbersService(ctx).create(tenant, {
    number: numbers.main,
    label: 'Main line',
    destination_type: 'extension',
    destination_id: extensions[0].id,
  });
  const identities = new CallerIdentitiesService(ctx);
  const shared = await identities.create(tenant, { phone_number_id: main.id, name: 'Company main line', is_default: true });
  const direct = await identities.create(tenant, {
    phone_number_id: main.id,
    name: 'Direct line',
    external_caller_extension: extensions[1].number,
    user_id: first.id,
  });

  const twinnings = new TwinningsService(ctx);
  const mobile = await twinnings.create(tenant, admin, first.id, { phone_number: numbers.mobile, delay: 5 });
  const provisioned = await twinnings.create(tenant, provisioning, second.id, {
    phone_number: numbers.provisioned,
    backup_phone_number: numbers.backup,
    dial_strategy: 'voip_and_gsm_fallback',
  });

  const dnd = new DndService(ctx);
  const [internalDnd] = await dnd.bulk(tenant, admin, first.id, {
    dnds: [
      { type: 'internal', caller_identity_id: null, status: false },
      { type: 'external', caller_identity_id: shared.id, status: true },
    ],
  });

  const forwards = new ForwardsService(ctx);
  const forward = await forwards.create(tenant, admin, first.id, { type: 'no_answer', destination_type: 'voicemail', delay: 25 });
  await forwards.create(tenant, admin, second.id, { type: 'busy', destination_type: 'number', destination: numbers.external });

  const group = await new UserGroupsService(ctx).create(tenant, admin, first.id, { name: 'Sales team', users: [second.id, demo.admin.id] });
  const push = await new PushDevicesService(ctx).register(tenant, first.id, {
    type: 'ios',
    token: randomBytes(32).toString('hex'),
    name: 'iPhone',
    twinning_id: mobile.id,
  });

  const firstUser = await findUser(ctx.db, tenant, first.id);
  if (firstUser) {
    await new WebrtcService(ctx).save(tenant, firstUser, {
      hostname: 'webrtc.pbx.example',
      port: 8089,
      password: randomBytes(18).toString('base64url'),
      voicemail_pin: String(1000 + (randomBytes(2).readUInt16BE() % 9000)),
      call_pickpup_restrictions: 'own_groups_only',
    });
  }

  return {
    extension: extensions[1].id,
    sip_device: desk.id,
    phone_button: blf.id,
    phone_number: main.id,
    caller_identity: direct.id,
    twinning: mobile.id,
    provisioned_twinning: provisioned.id,
    dnd: internalDnd.id,
    forward: forward.id,
    user_group: group.id,
    push_device: push.id,
  };
};
