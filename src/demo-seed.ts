import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './db/schema.js';
import type { AppContext } from './platform/context.js';
import { createApiKey } from './platform/auth/api-keys.js';
import { insertPbx } from './platform/tenancy.js';
import { withLease } from './platform/leases.js';
import { insertUser } from './modules/directory/index.js';
import type { DemoTenantContext } from './platform/demo-seeder.js';
import { DEMO_SEEDERS } from './modules/index.js';

export interface DemoUser {
  id: string;
  email: string;
  password: string;
  employee_id: string | null;
}

export interface DemoTenant {
  pbx_id: string;
  name: string;
  admin: { id: string; email: string; password: string };
  users: DemoUser[];
  disabled_user: { email: string; password: string };
  pbx_api_key: string;
  pbx_server_key: string;
  internal_api_key: string;
  integration_api_keys: Array<{ token: string; scopes: string[] }>;
  samples: Record<string, unknown>;
}

export interface DemoSeed {
  base_url: string;
  tenants: DemoTenant[];
}

interface TenantPlan {
  name: string;
  domain: string;
  country: string;
  timezone: string;
  admin: [string, string];
  users: Array<[string, string]>;
  disabled: [string, string];
}

const PLANS: TenantPlan[] = [
  {
    name: 'Acme Logistics S.à r.l.',
    domain: 'acme.example',
    country: 'LU',
    timezone: 'Europe/Luxembourg',
    admin: ['Anna', 'Schmit'],
    users: [
      ['Luc', 'Weber'],
      ['Marie', 'Hoffmann'],
    ],
    disabled: ['Paul', 'Muller'],
  },
  {
    name: 'Globex Handels GmbH',
    domain: 'globex.example',
    country: 'DE',
    timezone: 'Europe/Berlin',
    admin: ['Greta', 'Vogel'],
    users: [
      ['Jonas', 'Becker'],
      ['Lena', 'Schneider'],
    ],
    disabled: ['Karl', 'Fischer'],
  },
];

const SETTING_KEY = 'demo_seed';
const LEASE = 'demo-seed';
/** How long a seed waits for the demo-seed lease or the SQLite write lock before it gives up (as withLease waits). */
const LOCK_WAIT_MS = 600_000;

/**
 * Two tenants, each with an admin, two users, a disabled user and every kind of key, so
 * cross-tenant and cross-user behaviour can be tried from the demo data alone. Seeding again
 * returns the first answer (kept sealed in `settings`, since tokens are stored only as hashes).
 */
export async function seedDemo(ctx: AppContext): Promise<{ seed: DemoSeed; created: boolean }> {
  return (await seedDemoOnce(ctx, { onlyIntoEmpty: false }))!;
}

/**
 * The seed under the `demo-seed` lease, so of several instances starting together (or a CLI seed
 * beside a starting server) one seeds and the others wait and read its answer. `onlyIntoEmpty`:
 * a database holding other data and no demo seed is left alone (null).
 *
 * All or nothing: the whole seed is one transaction (the services' own transactions join it as
 * savepoints), so a seed that fails half way leaves nothing and the next one starts clean. On
 * SQLite it takes the write lock first (BEGIN IMMEDIATE) and waits for it, however long another
 * process holds it, instead of failing with "database is locked".
 */
export async function seedDemoOnce(ctx: AppContext, options: { onlyIntoEmpty: boolean }): Promise<{ seed: DemoSeed; created: boolean } | null> {
  const giveUpAt = Date.now() + LOCK_WAIT_MS;
  return whileLocked(giveUpAt, async () => {
    await leaseLooksFree(ctx, giveUpAt);
    return withLease(ctx.db, ctx.clock, LEASE, () =>
      whileLocked(giveUpAt, () =>
        inOneTransaction(ctx, async (seeding) => {
          const existing = await seeding.db.selectFrom('settings').select('value').where('key', '=', SETTING_KEY).executeTakeFirst();
          if (existing) return { seed: JSON.parse(ctx.secrets.open(existing.value)) as DemoSeed, created: false };
          if (options.onlyIntoEmpty && (await seeding.db.selectFrom('pbxes').select('id').limit(1).executeTakeFirst())) return null;
          return { seed: await seedAll(seeding), created: true };
        }),
      ),
    );
  });
}

/** SQLite's answer when another connection holds the lock (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, ...). */
const isLocked = (error: unknown) =>
  typeof (error as { code?: unknown } | null)?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

/** Runs `work` again, a little later, each time SQLite answers that the database is locked. */
async function whileLocked<T>(giveUpAt: number, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isLocked(error) || Date.now() > giveUpAt) throw error;
      await sleep(200);
    }
  }
}

/**
 * Waits, reading only, while another seeder holds the lease: taking it is a write, and on SQLite
 * a write waits for the lock synchronously, which would stall a seeder sharing this process.
 */
async function leaseLooksFree(ctx: AppContext, giveUpAt: number): Promise<void> {
  for (;;) {
    const lease = await ctx.db.selectFrom('leases').select('expires_at').where('name', '=', LEASE).executeTakeFirst();
    if (!lease || lease.expires_at <= ctx.clock.now().toISOString() || Date.now() > giveUpAt) return;
    await sleep(200);
  }
}

/**
 * Runs `work` in one transaction on one connection, with a context whose `db` is that
 * transaction; a service that opens a transaction of its own (`db.transaction().execute()`) gets
 * a savepoint of it instead, so its failure undoes its own part as before. Nothing is kept unless
 * `work` completes.
 */
async function inOneTransaction<T>(ctx: AppContext, work: (seeding: AppContext) => Promise<T>): Promise<T> {
  return ctx.db.connection().execute(async (connection) => {
    // SQLite: the write lock first (a deferred BEGIN that reads and then writes fails at once when
    // another connection wrote in between, whatever the busy timeout).
    await sql.raw(ctx.dialect === 'sqlite' ? 'begin immediate' : 'begin').execute(connection);
    try {
      const result = await work({ ...ctx, db: joining(connection) });
      await sql.raw('commit').execute(connection);
      return result;
    } catch (error) {
      await sql.raw('rollback').execute(connection);
      throw error;
    }
  });
}

/**
 * The connection as a transaction that nested `transaction()` calls join as savepoints. Those
 * that would have run at once (a seeder's `Promise.all`) take turns, as transactions on SQLite's
 * one connection always did: interleaved savepoints would release each other.
 */
function joining(db: Kysely<DB>, level = 0): Kysely<DB> {
  let turn: Promise<unknown> = Promise.resolve();
  let savepoints = 0;
  const inSavepoint = async <R>(callback: (trx: Transaction<DB>) => Promise<R>): Promise<R> => {
    const name = `seed_${level}_${++savepoints}`;
    await sql.raw(`savepoint ${name}`).execute(db);
    try {
      const result = await callback(joining(db, level + 1) as Transaction<DB>);
      await sql.raw(`release savepoint ${name}`).execute(db);
      return result;
    } catch (error) {
      await sql.raw(`rollback to savepoint ${name}`).execute(db);
      await sql.raw(`release savepoint ${name}`).execute(db);
      throw error;
    }
  };
  const nested = {
    setIsolationLevel: () => nested,
    setAccessMode: () => nested,
    execute: <R>(callback: (trx: Transaction<DB>) => Promise<R>): Promise<R> => {
      const result = turn.then(() => inSavepoint(callback));
      turn = result.catch(() => undefined);
      return result;
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'transaction') return () => nested;
      if (property === 'isTransaction') return true;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function seedAll(ctx: AppContext): Promise<DemoSeed> {
  const tenants: DemoTenant[] = [];
  for (const [index, plan] of PLANS.entries()) tenants.push(await seedTenant(ctx, plan, index));
  const seed: DemoSeed = { base_url: ctx.config.baseUrl, tenants };
  await ctx.db
    .insertInto('settings')
    .values({ key: SETTING_KEY, value: ctx.secrets.seal(JSON.stringify(seed)), updated_at: ctx.clock.now().toISOString() })
    .execute();
  return seed;
}

async function seedTenant(ctx: AppContext, plan: TenantPlan, index: number): Promise<DemoTenant> {
  const { db, clock, secrets } = ctx;
  const pbx = await insertPbx(db, clock, { name: plan.name, countryCode: plan.country, timezone: plan.timezone });
  const slug = plan.domain.split('.')[0];
  const person = async ([first, last]: [string, string], role: 'admin' | 'user', status: 'active' | 'disabled' = 'active') => {
    const email = `${first}.${last}@${plan.domain}`.toLowerCase();
    const password = `${slug}-${first.toLowerCase()}-2026`;
    const user = await insertUser(db, clock, {
      pbx_id: pbx.id,
      email,
      password,
      first_name: first,
      last_name: last,
      role,
      status,
      language: plan.country === 'DE' ? 'de' : 'en',
      email_verified_at: clock.now().toISOString(),
      allow_manage_global_contacts: role === 'admin' ? 1 : 0,
      call_information_visibility: role === 'admin' ? 'own_calls' : 'own_group_only',
      call_recordings_visibility: 'own_calls',
      voicemail_type: 'enabled',
      voicemail_destination: 'email_only',
      concurrent_calls: 2,
    });
    return { id: user.id, email, password, employee_id: null };
  };

  const admin = await person(plan.admin, 'admin');
  const users = [await person(plan.users[0], 'user'), await person(plan.users[1], 'user')];
  const disabled = await person(plan.disabled, 'user', 'disabled');
  const key = (kind: 'pbx' | 'pbx_server' | 'internal' | 'integration', name: string, scopes?: string[]) =>
    createApiKey(db, clock, secrets, { pbxId: pbx.id, kind, name, scopes, createdByUserId: kind === 'integration' ? admin.id : null }).then((k) => k.token);

  const tenant: DemoTenant = {
    pbx_id: pbx.id,
    name: pbx.name,
    admin: { id: admin.id, email: admin.email, password: admin.password },
    users: [admin, ...users],
    disabled_user: { email: disabled.email, password: disabled.password },
    pbx_api_key: await key('pbx', 'PBX server'),
    pbx_server_key: await key('pbx_server', 'PBX engine callbacks'),
    internal_api_key: await key('internal', `Internal services (${slug})`),
    integration_api_keys: [
      { token: await key('integration', 'CRM call history', ['call-history']), scopes: ['call-history'] },
      { token: await key('integration', 'Number inventory sync', ['phone-numbers']), scopes: ['phone-numbers'] },
    ],
    samples: {},
  };
  const context: DemoTenantContext = { pbxId: pbx.id, index, countryCode: plan.country, admin: tenant.admin, users: tenant.users };
  for (const seeder of DEMO_SEEDERS) Object.assign(tenant.samples, await seeder(ctx, context));
  // The workforce seed links each user to its employee; the JSON shows the link.
  const links = await db.selectFrom('users').select(['id', 'employee_id']).where('pbx_id', '=', pbx.id).execute();
  const employeeOf = new Map(links.map((link) => [link.id, link.employee_id]));
  for (const user of tenant.users) user.employee_id = employeeOf.get(user.id) ?? null;
  return tenant;
}
