/**
 * The demo's configuration push: tenant A's configuration pushed once (version 1, delivered by the
 * engine the demo runs), then one change the PBX has not received yet (the support queue rings
 * each member longer), so its status shows a push is due.
 */
import type { DemoSeeder } from '../../platform/demo-seeder.js';
import type { Tenant } from '../../platform/tenancy.js';
import { lengthenDemoSupportRing } from '../routing/index.js';
import { deliverPush } from './pushes/push-job.js';
import { ConfigPushService } from './pushes/pushes.service.js';

export const seedConfigPush: DemoSeeder = async (ctx, demo) => {
  if (demo.index !== 0) return {};
  const tenant: Tenant = { pbxId: demo.pbxId };
  const principal = {
    kind: 'user',
    id: demo.admin.id,
    userId: demo.admin.id,
    pbxId: demo.pbxId,
    role: 'admin',
    tokenId: 'demo-seed',
    rateLimit: null,
  } as const;
  const pushed = await new ConfigPushService(ctx).push(tenant, principal, null);
  await deliverPush(ctx, { pbxId: tenant.pbxId, pushId: pushed.id }, pushed.job_id!);
  // The unpushed change: written after the push.
  await lengthenDemoSupportRing(ctx, tenant);
  return { config_version: pushed.version, config_push: pushed.id };
};
