import { randomUUID } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../src/platform/crypto.js';
import type { AppContext } from '../src/platform/context.js';
import { insertPbx } from '../src/platform/tenancy.js';
import { insertUser, type NewUser } from '../src/modules/directory/users/users.queries.js';
import { issueUserToken } from '../src/platform/auth/tokens.js';
import { createApiKey } from '../src/platform/auth/api-keys.js';
import type { ApiKeyKind } from '../src/db/schema.js';
import { CallerIdentitiesService } from '../src/modules/directory/caller-identities/caller-identities.service.js';
import { ExtensionsService } from '../src/modules/directory/extensions/extensions.service.js';
import { PhoneNumbersService } from '../src/modules/directory/phone-numbers/phone-numbers.service.js';
import { SipDevicesService } from '../src/modules/directory/sip-devices/sip-devices.service.js';
import type { CreateCompanyInput } from '../src/modules/workforce/organisation/companies/companies.schemas.js';
import { CompaniesService } from '../src/modules/workforce/organisation/companies/companies.service.js';
import { DepartmentsService } from '../src/modules/workforce/organisation/departments/departments.service.js';
import type { CreateEmployeeInput } from '../src/modules/workforce/organisation/employees/employees.schemas.js';
import { EmployeesService } from '../src/modules/workforce/organisation/employees/employees.service.js';

const unique = () => randomBytes(4).toString('hex');

export interface TestTenant {
  pbxId: string;
}

export async function createTenant(
  ctx: AppContext,
  overrides: { name?: string; countryCode?: string; rateLimitPerMinute?: number | null } = {},
): Promise<TestTenant> {
  const pbx = await insertPbx(ctx.db, ctx.clock, {
    name: overrides.name ?? `PBX ${unique()}`,
    countryCode: overrides.countryCode ?? 'LU',
    rateLimitPerMinute: overrides.rateLimitPerMinute,
  });
  return { pbxId: pbx.id };
}

/**
 * Fixture users (some 500 a run) need not resist guessing: the cheapest argon2id there is (8 KiB,
 * one pass). A stored hash names its own parameters, so logging in verifies them exactly as it
 * verifies production hashes; users created through the API and the CLI get the production cost.
 */
const FIXTURE_PASSWORD_COST = { memoryCost: 8, timeCost: 1, parallelism: 1 };

/** A user `createUser` or `createAdmin` made: its sign-in, a token, and its tenant. */
export interface TestUser {
  id: string;
  pbxId: string;
  email: string;
  password: string;
  token: string;
  tenant: TestTenant;
}

/** A user with a token; makes its tenant unless given one. */
export async function createUser(
  ctx: AppContext,
  options: { tenant?: TestTenant; role?: 'admin' | 'user'; fields?: Partial<NewUser> } = {},
): Promise<TestUser> {
  const tenant = options.tenant ?? (await createTenant(ctx));
  const password = `pw-${unique()}-secret`;
  const email = `user-${unique()}@example.test`;
  const { password: stored, ...fields } = {
    pbx_id: tenant.pbxId,
    email,
    password,
    first_name: 'Test',
    last_name: `User ${unique()}`,
    role: options.role ?? 'user',
    ...options.fields,
  } as NewUser;
  const user = await insertUser(ctx.db, ctx.clock, { ...fields, password: null });
  if (stored)
    await ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(stored, FIXTURE_PASSWORD_COST) })
      .where('id', '=', user.id)
      .execute();
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

// Directory (issue #3): rows created through the module services, parents included.

export async function createExtension(ctx: AppContext, tenant: TestTenant, fields: { number?: string; user_id?: string | null; name?: string } = {}) {
  return new ExtensionsService(ctx).create(tenant, {
    number: fields.number ?? String(1000 + Math.floor(Math.random() * 8999)),
    name: fields.name,
    user_id: fields.user_id ?? null,
  });
}

export async function createSipDevice(
  ctx: AppContext,
  tenant: TestTenant,
  fields: { user_id?: string | null; model?: 'yealink-t54w' | 'yealink-t33g' | null; extension_id?: string | null } = {},
) {
  const { row } = await new SipDevicesService(ctx).create(tenant, {
    name: `Phone ${unique()}`,
    model: fields.model === undefined ? 'yealink-t54w' : fields.model,
    user_id: fields.user_id ?? null,
    extension_id: fields.extension_id ?? null,
  });
  return row;
}

/** A phone number (unique platform-wide, so random) and a caller identity on it. */
/** A mobile twinning of the user, enabled, rung with no delay (written straight into its table). */
export async function createMobileTwinning(ctx: AppContext, userId: string, phoneNumber = '+352691222333'): Promise<string> {
  const now = ctx.clock.now().toISOString();
  const id = randomUUID();
  await ctx.db
    .insertInto('twinnings')
    .values({
      id,
      user_id: userId,
      status: 'enabled',
      phone_number: phoneNumber,
      delay: 0,
      sync_source: 'manual',
      type: 'mobile',
      dial_strategy: 'gsm_only',
      fmc_enabled: 0,
      backup_phone_number: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function createCallerIdentity(ctx: AppContext, tenant: TestTenant, fields: { user_id?: string | null } = {}) {
  const number = await new PhoneNumbersService(ctx).create(tenant, { number: `+35226${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}` });
  const identity = await new CallerIdentitiesService(ctx).create(tenant, {
    phone_number_id: number.id,
    name: `Identity ${unique()}`,
    user_id: fields.user_id ?? null,
  });
  return { number, identity };
}

// Workforce (issue #13): the organisation, created through the module services. Each makes its
// tenant when given none; the row's spellings (`name`, `legal_holidays`, `userId`) are taken too.

/** A company (Luxembourg unless told), of the tenant given or of a new one. */
export async function createCompany(
  ctx: AppContext,
  tenant?: TestTenant,
  fields: Partial<CreateCompanyInput> & { name?: string; legal_holidays?: number } = {},
) {
  const { name, legal_holidays, ...body } = fields;
  return new CompaniesService(ctx).create(tenant ?? (await createTenant(ctx)), {
    company: name ?? `Company ${unique()}`,
    country_cc: 'LU',
    ...(legal_holidays === undefined ? {} : { legalHolidays: legal_holidays }),
    ...body,
  });
}

/** A department (of no company unless told), of the tenant given or of a new one. */
export async function createDepartment(ctx: AppContext, tenant?: TestTenant, fields: { name?: string; company_id?: string | null } = {}) {
  return new DepartmentsService(ctx).create(tenant ?? (await createTenant(ctx)), {
    name: fields.name ?? `Department ${unique()}`,
    company_id: fields.company_id ?? null,
  });
}

/** An employee (in the tenant's name order), of the tenant given or of a new one; `user_id` (or `userId`) links that user to it. */
export async function createEmployee(ctx: AppContext, tenant?: TestTenant, fields: Partial<CreateEmployeeInput> & { userId?: string } = {}) {
  const owner = tenant ?? (await createTenant(ctx));
  const { userId, ...body } = fields;
  const service = new EmployeesService(ctx);
  return service.create(owner, await service.nameOrder(owner), {
    first_name: 'Test',
    last_name: `Employee ${unique()}`,
    ...(userId === undefined ? {} : { user_id: userId }),
    ...body,
  });
}
