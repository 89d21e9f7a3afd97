import { randomBytes } from 'node:crypto';
import type { AppContext } from '../src/platform/context.js';
import { insertPbx } from '../src/modules/tenants/tenants.queries.js';
import { insertUser, type NewUser } from '../src/modules/users/users.queries.js';
import { issueUserToken } from '../src/platform/auth/tokens.js';
import { createApiKey } from '../src/platform/auth/api-keys.js';
import type { ApiKeyKind } from '../src/db/schema.js';

const unique = () => randomBytes(4).toString('hex');

export interface TestTenant {
  pbxId: string;
}

export async function createTenant(ctx: AppContext, overrides: { name?: string; countryCode?: string; rateLimitPerMinute?: number | null } = {}): Promise<TestTenant> {
  const pbx = await insertPbx(ctx.db, ctx.clock, { name: overrides.name ?? `PBX ${unique()}`, countryCode: overrides.countryCode ?? 'LU', rateLimitPerMinute: overrides.rateLimitPerMinute });
  return { pbxId: pbx.id };
}

export interface TestUser {
  id: string;
  pbxId: string;
  email: string;
  password: string;
  token: string;
}

/** A user with a token; makes its tenant unless given one. */
export async function createUser(
  ctx: AppContext,
  options: { tenant?: TestTenant; role?: 'admin' | 'user'; fields?: Partial<NewUser> } = {},
): Promise<TestUser & { tenant: TestTenant }> {
  const tenant = options.tenant ?? (await createTenant(ctx));
  const password = `pw-${unique()}-secret`;
  const email = `user-${unique()}@example.test`;
  const user = await insertUser(ctx.db, ctx.clock, { pbx_id: tenant.pbxId, email, password, first_name: 'Test', last_name: `User ${unique()}`, role: options.role ?? 'user', ...options.fields });
  const token = await issueUserToken(ctx.db, ctx.clock, user, { name: 'test', ttlSeconds: 3600 });
  return { id: user.id, pbxId: tenant.pbxId, email: user.email, password, token, tenant };
}

export async function createAdmin(ctx: AppContext, tenant?: TestTenant) {
  return createUser(ctx, { tenant, role: 'admin' });
}

export async function createKey(ctx: AppContext, tenant: TestTenant, kind: ApiKeyKind, scopes: string[] = []): Promise<string> {
  const { token } = await createApiKey(ctx.db, ctx.clock, ctx.secrets, { pbxId: tenant.pbxId, kind, name: `${kind} ${unique()}`, scopes });
  return token;
}
