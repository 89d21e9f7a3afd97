/**
 * The demo's call routing, made through the services (so the graph checks hold): announcements
 * and music (generated tones), a support queue with voicemail as its overflow, a sales ring
 * group, a two-level IVR (sales / support / a language menu that switches the announcements),
 * and the main number's flow: business hours Monday to Friday 08:00-18:00, Luxembourg's public
 * holidays and the PBX's own closed, voicemail after the closed and holiday messages.
 */
import type { AppContext } from '../../platform/context.js';
import type { DemoSeeder } from '../../platform/demo-seeder.js';
import type { Tenant } from '../../platform/tenancy.js';
import { routeNumberByLabel } from '../directory/index.js';
import { CallFlowsService } from './call-flows/call-flows.service.js';
import { IvrStepsService } from './ivrs/ivr-steps.service.js';
import { IvrsService } from './ivrs/ivrs.service.js';
import { QueuesService } from './queues/queues.service.js';
import { insertSoundFile } from './sound-files/sound-files.service.js';
import { toneWav } from './sound-files/wav.js';
import { STEP_TARGET_TYPES } from './usages.js';

export const seedRouting: DemoSeeder = async (ctx, demo) => {
  const tenant: Tenant = { pbxId: demo.pbxId };
  const now = ctx.clock.now();
  const sound = (name: string, type: 'announcement' | 'music', frequencyHz: number, seconds: number, language: string | null = 'en') =>
    insertSoundFile(
      ctx.db,
      tenant,
      { name, type, language, content: toneWav({ seconds, frequencyHz }), originalFilename: `${name.toLowerCase().replace(/\W+/g, '-')}.wav` },
      now,
    );
  const welcome = await sound('Welcome and main menu', 'announcement', 440, 2);
  const languages = await sound('Language menu', 'announcement', 494, 1.5, null);
  const closed = await sound('Closed: office hours', 'announcement', 392, 2);
  const holiday = await sound('Closed: public holiday', 'announcement', 349, 2);
  const music = await sound('Hold music', 'music', 262, 4, null);

  const [first, second, third] = demo.users;
  const queue = await new QueuesService(ctx).create(tenant, {
    name: 'Support',
    strategy: 'least_recent',
    max_wait_seconds: 180,
    max_callers: 10,
    member_timeout_seconds: 20,
    wrap_up_seconds: 15,
    music_on_hold_id: music.id,
    announcement_id: null,
    overflow: { type: 'voicemail', id: demo.admin.id },
    members: [
      { type: 'user', id: first.id, penalty: 0 },
      { type: 'user', id: (third ?? second).id, penalty: 1 },
    ],
  });

  const flows = new CallFlowsService(ctx);
  const sales = await flows.create(tenant, {
    name: 'Sales',
    description: 'Sales team, all at once; voicemail when nobody answers.',
    entry: 'team',
    nodes: [
      {
        key: 'team',
        type: 'ring_group',
        strategy: 'simultaneous',
        members: [
          { user_id: second.id, timeout_seconds: 25 },
          { user_id: demo.admin.id, timeout_seconds: 25 },
        ],
        no_answer: 'mailbox',
      },
      { key: 'mailbox', type: 'voicemail', user_id: demo.admin.id },
    ],
  });
  const support = await flows.create(tenant, {
    name: 'Support',
    description: 'The support queue; its overflow is voicemail.',
    entry: 'queue',
    nodes: [{ key: 'queue', type: 'queue', queue_id: queue.id }],
  });

  const ivrs = new IvrsService(ctx);
  const steps = new IvrStepsService(ctx);
  const menu = await ivrs.create(tenant, {
    pbx_id: tenant.pbxId,
    name: 'Main menu',
    comment: '1 sales, 2 support, 9 language; support when no key is pressed.',
    announcement: welcome.id,
    musicOnHold: music.id,
    default_action: 'default_step',
    announcement_language: null,
    timeout_seconds: 6,
  });
  const salesStep = await steps.create(tenant, menu.id, { option: '1', name: 'Sales', target_type: STEP_TARGET_TYPES.call_flow, target_id: sales.id });
  await steps.create(tenant, menu.id, { option: '2', name: 'Support', target_type: STEP_TARGET_TYPES.call_flow, target_id: support.id });
  await steps.create(tenant, menu.id, { option: 'default', name: 'Support (no key)', target_type: STEP_TARGET_TYPES.call_flow, target_id: support.id });
  const languageMenu = await ivrs.create(tenant, {
    pbx_id: tenant.pbxId,
    name: 'Language menu',
    comment: 'Deutsch, français, English: back to the main menu in that language.',
    announcement: languages.id,
    default_action: 'repeat',
    max_repeats: 1,
  });
  const choices = [
    { option: '1', name: 'Deutsch', language: 'de' },
    { option: '2', name: 'Français', language: 'fr' },
    { option: '3', name: 'English', language: 'en' },
  ] as const;
  for (const choice of choices) await steps.create(tenant, languageMenu.id, { ...choice, target_type: STEP_TARGET_TYPES.ivr, target_id: menu.id });
  await steps.create(tenant, menu.id, { option: '9', name: 'Language', target_type: STEP_TARGET_TYPES.ivr, target_id: languageMenu.id });

  const main = await flows.create(tenant, {
    name: 'Main number',
    description: 'Business hours Monday to Friday 08:00-18:00; Luxembourg and company holidays closed.',
    entry: 'hours',
    nodes: [
      {
        key: 'hours',
        type: 'time_condition',
        open_hours: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' }],
        public_holidays_country: 'LU',
        tenant_holidays: true,
        open: 'menu',
        closed: 'closed-message',
        holiday: 'holiday-message',
      },
      { key: 'menu', type: 'ivr', ivr_id: menu.id },
      { key: 'closed-message', type: 'play', sound_file_id: closed.id, next: 'mailbox' },
      { key: 'holiday-message', type: 'play', sound_file_id: holiday.id, next: 'mailbox' },
      { key: 'mailbox', type: 'voicemail', user_id: demo.admin.id },
    ],
  });

  // The directory's main line, until now ringing the first extension, goes through the flow.
  const routedNumber = await routeNumberByLabel(ctx.db, tenant, 'Main line', { type: 'call_flow', id: main.id }, now.toISOString());

  return {
    sound_file_announcement: welcome.id,
    sound_file_music: music.id,
    ivr: menu.id,
    ivr_step: salesStep.id,
    call_flow: main.id,
    queue: queue.id,
    routed_number: routedNumber,
  };
};

/**
 * The demo's change after its first configuration push (config-push's seed): the support queue
 * rings each member longer, made through the service as an administrator's edit would be.
 */
export async function lengthenDemoSupportRing(ctx: AppContext, tenant: Tenant): Promise<void> {
  const support = await ctx.db
    .selectFrom('queues')
    .select('id')
    .where('pbx_id', '=', tenant.pbxId)
    .where('name', '=', 'Support')
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  await new QueuesService(ctx).update(tenant, support.id, { member_timeout_seconds: 25 });
}
