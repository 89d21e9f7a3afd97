import { Forbidden } from '../http/errors.js';
import type { Principal } from './auth/principal.js';

/** The tenant every query of tenant data is scoped to. Built from the principal only. */
export interface Tenant {
  readonly pbxId: string;
}

export function tenantOf(principal: Principal): Tenant {
  if (!principal.pbxId) throw new Forbidden('This principal is not bound to a PBX.');
  return { pbxId: principal.pbxId };
}

/** For `/{pbx_id}/...` paths: a PBX other than the principal's is refused with 403. */
export function tenantFromPath(principal: Principal, pbxId: string): Tenant {
  const tenant = tenantOf(principal);
  if (tenant.pbxId !== pbxId) throw new Forbidden('You do not have access to this PBX.');
  return tenant;
}
