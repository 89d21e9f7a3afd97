import type { AppContext } from './context.js';

/** What a module's demo seeder gets: the tenant and its people, to hang realistic rows on. */
export interface DemoTenantContext {
  pbxId: string;
  /** The tenant's place among the demo tenants (0, 1, ...), for ids a PBX numbers itself that should still differ between them. */
  index: number;
  countryCode: string;
  admin: { id: string; email: string };
  users: Array<{ id: string; email: string }>;
}

/** A module's demo rows for one tenant; returns the ids to publish under `samples`. */
export type DemoSeeder = (ctx: AppContext, tenant: DemoTenantContext) => Promise<Record<string, unknown>>;
