import { Forbidden } from './errors.js';
import type { Principal } from './auth/principal.js';

/** The tenant every query of tenant data is scoped to. Built from the principal only. */
export interface Tenant {
  readonly pbxId: string;
}

export function tenantOf(principal: Principal): Tenant {
  if (!principal.pbxId) throw new Forbidden('This principal is not bound to a PBX.');
  return { pbxId: principal.pbxId };
}
