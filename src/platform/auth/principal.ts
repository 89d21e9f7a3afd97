import { Forbidden, Unauthorized } from '../errors.js';

export type Role = 'admin' | 'user';

/** Who is calling. The tenant (PBX) always comes from here, never from the request. */
export type Principal =
  | { kind: 'user'; id: string; userId: string; pbxId: string; role: Role; tokenId: string; rateLimit: number | null }
  | { kind: 'pbx'; id: string; pbxId: string; rateLimit: number | null }
  | { kind: 'integration'; id: string; pbxId: string; scopes: readonly string[]; rateLimit: number | null }
  | { kind: 'pbx_server'; id: string; pbxId: string; rateLimit: number | null }
  /** An internal service's key: bound to one PBX, or operator-wide (`pbxId` null; made only by the CLI, its every use logged). */
  | { kind: 'internal'; id: string; pbxId: string | null; rateLimit: number | null };

export type PrincipalKind = Principal['kind'];
export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

/** Integration key scopes. Modules add theirs here so the set stays one documented list. */
export const INTEGRATION_SCOPES = ['phone-numbers', 'push-configuration', 'call-history', 'contacts', 'call-routing'] as const;
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];

/** What a route accepts. Anything not listed is refused with 403 (401 without a valid token). */
export interface RouteAuth {
  public?: boolean;
  /** User tokens; `'admin'` restricts to PBX administrators. */
  user?: boolean | 'admin';
  /** The PBX's own API key (PbxApiKey). */
  pbx?: boolean;
  /** Integration API keys holding every listed scope. */
  integration?: readonly IntegrationScope[];
  pbxServer?: boolean;
  internal?: boolean;
}

/** The user behind a user token; any other principal is refused as for a route that needs one. */
export function requireUser(principal: Principal): UserPrincipal {
  if (principal.kind !== 'user') throw new Unauthorized('This endpoint needs a user token.');
  return principal;
}

export function isAdmin(principal: Principal): boolean {
  return principal.kind === 'user' && principal.role === 'admin';
}

/** The refusal, or null when the principal may use a route declared with `auth`. */
export function refusal(principal: Principal, auth: RouteAuth): Forbidden | null {
  switch (principal.kind) {
    case 'user':
      if (!auth.user) return new Forbidden('This endpoint does not accept user tokens.');
      if (auth.user === 'admin' && principal.role !== 'admin') return new Forbidden('Only an administrator of this PBX may do this.');
      return null;
    case 'pbx':
      return auth.pbx ? null : new Forbidden('This API key lacks the required ability.');
    case 'integration': {
      if (!auth.integration) return new Forbidden('This API key lacks the required ability.');
      const missing = auth.integration.filter((scope) => !principal.scopes.includes(scope));
      return missing.length ? new Forbidden(`This API key lacks the required scope: ${missing.join(', ')}.`) : null;
    }
    case 'pbx_server':
      return auth.pbxServer ? null : new Forbidden('This API key lacks the required ability.');
    case 'internal':
      return auth.internal ? null : new Forbidden('This API key lacks the required ability.');
  }
}

/** A user may act on its own records; an admin on every user of its PBX. Tenancy is checked by the caller's query. */
export function assertActsOnSelfOrAdmin(principal: Principal, userId: string): void {
  if (principal.kind === 'user' && principal.role !== 'admin' && principal.userId !== userId) {
    throw new Forbidden('You may only act on your own records.');
  }
}
