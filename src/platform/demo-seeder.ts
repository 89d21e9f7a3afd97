import type { AppContext } from './context.js';
import { seedAddressBook } from '../modules/address-book/address-book.seed.js';
import { seedDirectory } from '../modules/directory/directory.seed.js';
import { seedCallHistory } from '../modules/calls/calls.seed.js';

/** What a module's demo seeder gets: the tenant and its people, to hang realistic rows on. */
export interface DemoTenantContext {
  pbxId: string;
  countryCode: string;
  admin: { id: string; email: string };
  users: Array<{ id: string; email: string }>;
}

/** A module's demo rows for one tenant; returns the ids to publish under `samples`. */
export type DemoSeeder = (ctx: AppContext, tenant: DemoTenantContext) => Promise<Record<string, unknown>>;

/** Modules add their seeders here, in dependency order. */
export const DEMO_SEEDERS: DemoSeeder[] = [seedDirectory, seedAddressBook, seedCallHistory];
