import type { AppContext } from '../../../platform/context.js';
import { Unauthorized } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { findProfileRow, findUserWithPbx, type ProfileRow, type UserWithPbxRow } from './me.queries.js';

/** The caller's own record and profile. */
export class MeService {
  constructor(private readonly ctx: AppContext) {}

  async profile(tenant: Tenant, userId: string): Promise<ProfileRow> {
    return found(await findProfileRow(this.ctx.db, tenant, userId));
  }

  async userRecord(tenant: Tenant, userId: string): Promise<UserWithPbxRow> {
    return found(await findUserWithPbx(this.ctx.db, tenant, userId));
  }
}

// The token was valid a moment ago; a user gone since then is treated as logged out.
function found<T>(row: T | undefined): T {
  if (!row) throw new Unauthorized('Invalid or expired token.');
  return row;
}
