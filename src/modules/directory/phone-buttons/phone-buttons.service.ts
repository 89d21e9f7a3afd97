import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { targetUser, type UserRow } from '../shared/access.js';
import { guardUnique } from '../../../platform/unique.js';
import { findExtensionByNumber } from '../extensions/extensions.queries.js';
import { buttonCount } from '../sip-devices/phone-models.js';
import { findSipDevice, sipDevicesOfUsers } from '../sip-devices/sip-devices.queries.js';
import type { SipDeviceRow } from '../sip-devices/sip-devices.service.js';
import { BUTTON_TYPES_WITH_VALUE, type CreatePhoneButtonBody, type PhoneButtonPreview, type UpdatePhoneButtonBody } from './phone-buttons.schemas.js';
import { deleteButton, findButton, insertButton, listButtons, updateButton, type PhoneButtonRow } from './phone-buttons.queries.js';

export type { PhoneButtonRow } from './phone-buttons.queries.js';

const NOT_FOUND = 'Phone button not found.';
const POSITION_TAKEN = [{ match: 'position', field: 'position', message: 'This position is already programmed on the device.' }];

/** Programmable keys of a user's desk phones, limited by what the phone model has. */
export class PhoneButtonsService {
  constructor(private readonly ctx: AppContext) {}

  owner(tenant: Tenant, principal: Principal, userId: string): Promise<UserRow> {
    return targetUser(this.ctx.db, tenant, principal, userId);
  }

  private async device(tenant: Tenant, user: UserRow, sipDeviceId: string): Promise<SipDeviceRow> {
    const device = await findSipDevice(this.ctx.db, tenant, sipDeviceId);
    if (!device || device.user_id !== user.id) throw ValidationFailed.field('sip_device_id', 'The selected sip device id is invalid.');
    return device;
  }

  private async check(tenant: Tenant, device: SipDeviceRow, button: { position: number; type: string; value: string | null }): Promise<void> {
    const total = buttonCount(device.model);
    if (button.position > total) throw ValidationFailed.field('position', `The position must be between 1 and ${total} for this phone model.`);
    const needsValue = (BUTTON_TYPES_WITH_VALUE as readonly string[]).includes(button.type);
    if (needsValue && !button.value) throw ValidationFailed.field('value', `The value field is required for ${button.type} buttons.`);
    if (!needsValue && button.value) throw ValidationFailed.field('value', `The value field must be empty for ${button.type} buttons.`);
    if (button.type === 'blf' && !(await findExtensionByNumber(this.ctx.db, tenant, button.value!)))
      throw ValidationFailed.field('value', 'The value must be an extension of this PBX.');
    if ((button.type === 'speed_dial' || button.type === 'park') && !/^\+?[0-9*#]{1,24}$/.test(button.value!))
      throw ValidationFailed.field('value', 'The value must be a dialable number.');
  }

  private async load(tenant: Tenant, userId: string, id: string): Promise<PhoneButtonRow> {
    const row = await findButton(this.ctx.db, tenant, userId, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async list(tenant: Tenant, principal: Principal, userId: string, sipDeviceId?: string): Promise<PhoneButtonRow[]> {
    const user = await this.owner(tenant, principal, userId);
    return listButtons(this.ctx.db, tenant, user.id, sipDeviceId);
  }

  async get(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<PhoneButtonRow> {
    const user = await this.owner(tenant, principal, userId);
    return this.load(tenant, user.id, id);
  }

  /** What the phone will show: every key of the model, programmed or not. */
  async preview(tenant: Tenant, principal: Principal, userId: string, sipDeviceId?: string): Promise<Static<typeof PhoneButtonPreview>> {
    const user = await this.owner(tenant, principal, userId);
    const device = sipDeviceId ? await this.device(tenant, user, sipDeviceId) : (await sipDevicesOfUsers(this.ctx.db, tenant, [user.id]))[0];
    if (!device) return { model: null, total_buttons: 0, buttons: [] };
    const total = buttonCount(device.model);
    const programmed = new Map((await listButtons(this.ctx.db, tenant, user.id, device.id)).map((b) => [b.position, b]));
    const buttons = Array.from({ length: total }, (_, i) => {
      const b = programmed.get(i + 1);
      return { position: i + 1, type: b?.type ?? 'none', value: b?.value ?? null, label: b?.label ?? null };
    });
    return { model: device.model, total_buttons: total, buttons };
  }

  async create(tenant: Tenant, principal: Principal, userId: string, body: Static<typeof CreatePhoneButtonBody>): Promise<PhoneButtonRow> {
    const user = await this.owner(tenant, principal, userId);
    const device = await this.device(tenant, user, body.sip_device_id);
    const button = { position: body.position, type: body.type, value: body.value ?? null, label: body.label ?? null };
    await this.check(tenant, device, button);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await guardUnique(POSITION_TAKEN, () =>
      insertButton(this.ctx.db, { id, pbx_id: tenant.pbxId, user_id: user.id, sip_device_id: device.id, ...button, created_at: now, updated_at: now }),
    );
    return (await findButton(this.ctx.db, tenant, user.id, id))!;
  }

  async update(tenant: Tenant, principal: Principal, userId: string, id: string, body: Static<typeof UpdatePhoneButtonBody>): Promise<PhoneButtonRow> {
    const user = await this.owner(tenant, principal, userId);
    const row = await this.load(tenant, user.id, id);
    const device = await this.device(tenant, user, row.sip_device_id);
    const typeChanged = body.type !== undefined && body.type !== row.type;
    const button = {
      position: body.position ?? row.position,
      type: body.type ?? row.type,
      value: body.value !== undefined ? body.value : typeChanged ? null : row.value,
      label: body.label !== undefined ? body.label : row.label,
    };
    await this.check(tenant, device, button);
    await guardUnique(POSITION_TAKEN, () => updateButton(this.ctx.db, tenant, id, { ...button, updated_at: this.ctx.clock.now().toISOString() }));
    return (await findButton(this.ctx.db, tenant, user.id, id))!;
  }

  async delete(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<void> {
    const user = await this.owner(tenant, principal, userId);
    await this.load(tenant, user.id, id);
    await deleteButton(this.ctx.db, tenant, id);
  }
}
