import type { Principal } from '../platform/auth/principal.js';

/**
 * PRINCIPAL-CONDITIONAL fields: present for user tokens, omitted entirely (not null) for API keys.
 * Presenters spread the result: `{ ...base, ...perUserFields(principal, () => ({ is_favorite })) }`.
 */
export function perUserFields<T extends object>(principal: Principal, fields: () => T): Partial<T> {
  return principal.kind === 'user' ? fields() : {};
}
