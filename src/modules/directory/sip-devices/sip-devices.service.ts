import { randomBytes, randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Static } from '@sinclair/typebox';
import { Forbidden, NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { targetUser, toFlag } from '../shared/access.js';
import { guardUnique } from '../../../platform/unique.js';
import { assertTenantUser } from '../shared/user-summary.js';
import type { SipDeviceTable } from '../directory.tables.js';
import { findExtension } from '../extensions/extensions.queries.js';
import type { CreateSipDeviceBody, UpdateSipDeviceBody } from './sip-devices.schemas.js';
import {
  findSipDevice,
  insertSipDevice,
  listSipDevices,
  sipDevicesOfUsers,
  updateSipDevice,
  type SipDeviceFilters,
  type SipDeviceRow,
} from './sip-devices.queries.js';

export type { SipDeviceRow } from './sip-devices.queries.js';

const NOT_FOUND = 'SIP device not found.';
const DEFAULT_CODECS = ['opus', 'g722', 'pcma'];
const UNIQUE = [
  { match: 'username', field: 'username', message: 'The username has already been taken.' },
  { match: 'mac_address', field: 'mac_address', message: 'The mac address has already been taken.' },
];

/** `80-5e-c0-12-34-56`, `805EC0123456` and `80:5E:C0:12:34:56` are one device. */
export function normaliseMac(mac: string): string {
  return (
    mac
      .replace(/[^0-9A-Fa-f]/g, '')
      .toUpperCase()
      .match(/.{2}/g) ?? []
  ).join(':');
}

/** SIP devices: platform-unique username and MAC, the SIP secret sealed at rest. */
export class SipDevicesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: SipDeviceFilters, sort: SortTerm[], page: PageRequest) {
    return listSipDevices(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}): Promise<SipDeviceRow> {
    const row = await findSipDevice(this.ctx.db, tenant, id, options);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** The live devices of one user: the user itself, or an administrator or the PBX for any user of the PBX. */
  async ofUser(tenant: Tenant, principal: Principal, userId: string): Promise<SipDeviceRow[]> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    return sipDevicesOfUsers(this.ctx.db, tenant, [user.id]);
  }

  /** A user reads its own devices; administrators and the PBX read all of the PBX. */
  async getFor(tenant: Tenant, principal: Principal, id: string): Promise<SipDeviceRow> {
    const row = await this.get(tenant, id);
    if (principal.kind === 'user' && principal.role !== 'admin' && row.user_id !== principal.userId)
      throw new Forbidden('You may only act on your own records.');
    return row;
  }

  private async checkReferences(tenant: Tenant, body: Static<typeof UpdateSipDeviceBody>): Promise<void> {
    if (body.user_id) await assertTenantUser(this.ctx.db, tenant, body.user_id);
    if (body.extension_id && !(await findExtension(this.ctx.db, tenant, body.extension_id))) {
      throw ValidationFailed.field('extension_id', 'The selected extension id is invalid.');
    }
  }

  async create(tenant: Tenant, body: Static<typeof CreateSipDeviceBody>): Promise<{ row: SipDeviceRow; secret: string }> {
    await this.checkReferences(tenant, body);
    const now = this.ctx.clock.now().toISOString();
    const id = randomUUID();
    const secret = body.secret ?? randomBytes(18).toString('base64url');
    await guardUnique(UNIQUE, () =>
      insertSipDevice(this.ctx.db, {
        id,
        pbx_id: tenant.pbxId,
        user_id: body.user_id ?? null,
        extension_id: body.extension_id ?? null,
        name: body.name,
        username: body.username ?? `sip${randomBytes(6).toString('hex')}`,
        secret_sealed: this.ctx.secrets.seal(secret),
        transport: body.transport ?? 'udp',
        codecs: JSON.stringify(body.codecs ?? DEFAULT_CODECS),
        mac_address: body.mac_address ? normaliseMac(body.mac_address) : null,
        model: body.model ?? null,
        enabled: toFlag(body.enabled ?? true),
        created_at: now,
        updated_at: now,
      }),
    );
    return { row: await this.get(tenant, id), secret };
  }

  async update(tenant: Tenant, id: string, body: Static<typeof UpdateSipDeviceBody>): Promise<SipDeviceRow> {
    await this.get(tenant, id);
    await this.checkReferences(tenant, body);
    const changes: Updateable<SipDeviceTable> = { updated_at: this.ctx.clock.now().toISOString() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.username !== undefined) changes.username = body.username;
    if (body.secret !== undefined) changes.secret_sealed = this.ctx.secrets.seal(body.secret);
    if (body.transport !== undefined) changes.transport = body.transport;
    if (body.codecs !== undefined) changes.codecs = JSON.stringify(body.codecs);
    if (body.mac_address !== undefined) changes.mac_address = body.mac_address ? normaliseMac(body.mac_address) : null;
    if (body.model !== undefined) changes.model = body.model;
    if (body.enabled !== undefined) changes.enabled = toFlag(body.enabled);
    if (body.user_id !== undefined) changes.user_id = body.user_id;
    if (body.extension_id !== undefined) changes.extension_id = body.extension_id;
    await guardUnique(UNIQUE, () => updateSipDevice(this.ctx.db, tenant, id, changes));
    return this.get(tenant, id);
  }

  delete(tenant: Tenant, id: string): Promise<void> {
    return softDelete(this.ctx.db, this.ctx.clock, 'sip_devices', tenant, id, NOT_FOUND);
  }

  async restore(tenant: Tenant, id: string): Promise<SipDeviceRow> {
    await restore(this.ctx.db, this.ctx.clock, 'sip_devices', tenant, id, NOT_FOUND);
    return this.get(tenant, id);
  }
}
