/**
 * The domains of the API, in the order their routes register. Each domain is a folder with an
 * `index.ts` that lists its route plugins and exports what other domains may use (see
 * docs/architecture.md).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/context.js';
import type { DemoSeeder } from '../platform/demo-seeder.js';
import { identityRoutes } from './identity/index.js';
import { integrationRoutes, seedIntegrations } from './integrations/index.js';
import { directoryRoutes, seedDirectory } from './directory/index.js';
import { addressBookRoutes, seedAddressBook } from './address-book/index.js';
import { callsRoutes, seedCallHistory } from './calls/index.js';
import { healthRoutes, operationsRoutes } from './operations/index.js';
import { eventsRoutes } from './events/index.js';
import { routingRoutes, seedRouting } from './routing/index.js';
import { configPushDomainRoutes, seedConfigPush } from './config-push/index.js';
import { seedAbsences, seedOrganisation, seedRecurringTransactions, seedSchedules, seedWorkforceTime, workforceRoutes } from './workforce/index.js';

const API_DOMAINS = [
  identityRoutes,
  integrationRoutes,
  directoryRoutes,
  addressBookRoutes,
  callsRoutes,
  routingRoutes,
  configPushDomainRoutes,
  workforceRoutes,
  eventsRoutes,
  operationsRoutes,
];

/**
 * Health and readiness at the root; every resource's routes under the API prefix, each a plugin
 * directly below the app (a plugin level per domain would make every request's objects one
 * prototype deeper, for nothing).
 */
export async function registerModules(app: FastifyInstance, { ctx, apiPrefix }: { ctx: AppContext; apiPrefix: string }): Promise<void> {
  await app.register(healthRoutes, { ctx });
  for (const routes of API_DOMAINS.flat()) await app.register(routes, { ctx, prefix: apiPrefix });
}

/** Each domain's demo rows for a tenant, in dependency order (calls ring the directory's people). */
export const DEMO_SEEDERS: DemoSeeder[] = [
  seedDirectory,
  seedRouting,
  seedOrganisation,
  seedWorkforceTime,
  seedAbsences,
  seedRecurringTransactions,
  seedSchedules,
  seedAddressBook,
  seedCallHistory,
  seedIntegrations,
  seedConfigPush,
];
