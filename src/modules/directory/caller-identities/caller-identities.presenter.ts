import type { Static } from '@sinclair/typebox';
import { flag } from '../shared/access.js';
import type { CallerIdentityRow } from './caller-identities.queries.js';
import type { CallerIdentity } from './caller-identities.schemas.js';

/** A caller identity as the contract shows it. */
export function presentCallerIdentity(row: CallerIdentityRow): Static<typeof CallerIdentity> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    voip_id: row.voip_id,
    user_id: row.user_id,
    phone_number_id: row.phone_number_id,
    name: row.name,
    external_caller_number: row.external_caller_number,
    external_caller_extension: row.external_caller_extension,
    is_default: flag(row.is_default),
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
