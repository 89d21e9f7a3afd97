/**
 * The domains of the API, in the order their routes register. Each domain is a folder with an
 * `index.ts` that registers its routes and exports what other domains may use; room is kept for
 * `workforce`, `routing` and `config-push` (see their README files and docs/architecture.md).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/context.js';
import type { DemoSeeder } from '../platform/demo-seeder.js';
import { identityRoutes } from './identity/index.js';
import { integrationRoutes } from './integrations/index.js';
import { directoryRoutes, seedDirectory } from './directory/index.js';
import { addressBookRoutes, seedAddressBook } from './address-book/index.js';
import { callsRoutes, seedCallHistory } from './calls/index.js';
import { healthRoutes } from './operations/index.js';

const API_DOMAINS = [identityRoutes, integrationRoutes, directoryRoutes, addressBookRoutes, callsRoutes];

/** Health and readiness at the root; every domain under the API prefix. */
export async function registerModules(app: FastifyInstance, { ctx, apiPrefix }: { ctx: AppContext; apiPrefix: string }): Promise<void> {
  await app.register(healthRoutes, { ctx });
  for (const domain of API_DOMAINS) await app.register(domain, { ctx, prefix: apiPrefix });
}

/** Each domain's demo rows for a tenant, in dependency order (calls ring the directory's people). */
export const DEMO_SEEDERS: DemoSeeder[] = [seedDirectory, seedAddressBook, seedCallHistory];
