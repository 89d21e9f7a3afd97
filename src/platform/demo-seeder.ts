import type { AppContext } from './context.js';

/** What a module's demo seeder gets: the tenant and its people, to hang realistic rows on. */
export interface DemoTenantContext {
  pbxId: string;
  countryCode: string;
  admin: { id: string; email: string };
  users: Array<{ id: string; email: string }>;
}

/** A module's demo rows for one tenant; returns the ids to publish under `samples`. */
export type DemoSeeder = (ctx: AppContext, tenant: DemoTenantContext) => Promise<Record<string, unknown>>;
