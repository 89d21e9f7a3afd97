import { Forbidden, ValidationFailed } from '../../../platform/errors.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { findExtensionByNumber } from '../extensions/extensions.queries.js';
import { findSipDevice } from '../sip-devices/sip-devices.queries.js';
import type { SipDeviceRow } from '../sip-devices/sip-devices.service.js';
import { findUser } from '../users/users.queries.js';
import { clearRoaming, clearRoamingOfExtension, setRoaming } from './roaming.queries.js';

/** Hot-desking: an extension follows its user to any desk phone of the PBX, one phone at a time. */
export class RoamingService {
  constructor(private readonly ctx: AppContext) {}

  private async device(tenant: Tenant, id: string): Promise<SipDeviceRow> {
    const device = await findSipDevice(this.ctx.db, tenant, id);
    if (!device) throw ValidationFailed.field('sip_device_id', 'The selected sip device id is invalid.');
    return device;
  }

  async login(tenant: Tenant, sipDeviceId: string, number: string): Promise<SipDeviceRow> {
    const device = await this.device(tenant, sipDeviceId);
    const extension = await findExtensionByNumber(this.ctx.db, tenant, number);
    if (!extension) throw ValidationFailed.field('extension', 'The selected extension is invalid.');
    const user = extension.user_id ? await findUser(this.ctx.db, tenant, extension.user_id) : undefined;
    if (!user) throw ValidationFailed.field('extension', 'The extension belongs to no user.');
    if (user.extension_roaming !== 1) throw new Forbidden('Extension roaming is not enabled for this user.');
    if (user.status !== 'active') throw new Forbidden('This user account is disabled.');
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await clearRoamingOfExtension(trx, tenant, extension.id, now);
      await setRoaming(trx, tenant, device.id, { extensionId: extension.id, userId: user.id }, now);
    });
    return (await findSipDevice(this.ctx.db, tenant, device.id))!;
  }

  async logout(tenant: Tenant, sipDeviceId: string): Promise<SipDeviceRow> {
    const device = await this.device(tenant, sipDeviceId);
    if (!device.roaming_extension_id) throw ValidationFailed.field('sip_device_id', 'No extension is logged in on this device.');
    await clearRoaming(this.ctx.db, tenant, device.id, this.ctx.clock.now().toISOString());
    return (await findSipDevice(this.ctx.db, tenant, device.id))!;
  }
}
