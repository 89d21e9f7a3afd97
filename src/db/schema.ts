/**
 * The database's type, composed from each owner's table file (`*.tables.ts`, leaf files that import
 * only `columns.ts`): the foundation's here in db/, the platform's (jobs, webhooks, leases, audit) and each
 * domain's. This file only composes; it is the one place db/ looks into other layers, type-only.
 */
import type { FoundationTables } from './foundation.tables.js';
import type { DirectoryTables } from '../modules/directory/directory.tables.js';
import type { AddressBookTables } from '../modules/address-book/address-book.tables.js';
import type { CallTables } from '../modules/calls/calls.tables.js';
import type { OrganisationTables } from '../modules/workforce/organisation/organisation.tables.js';
import type { TimeTables } from '../modules/workforce/time/time.tables.js';
import type { AbsencesTables } from '../modules/workforce/absences/absences.tables.js';
import type { SchedulingTables } from '../modules/workforce/scheduling/scheduling.tables.js';
import type { RoutingTables } from '../modules/routing/routing.tables.js';
import type { ConfigPushTables } from '../modules/config-push/config-push.tables.js';
import type { JobTables } from '../platform/jobs/jobs.tables.js';
import type { WebhookTables } from '../platform/webhooks/webhooks.tables.js';
import type { LeaseTables } from '../platform/leases.tables.js';
import type { AuditTables } from '../platform/audit/audit.tables.js';
import type { EventTables } from '../platform/events/events.tables.js';
import type { LiveEventTables } from '../modules/events/events.tables.js';
import type { IdempotencyTables } from '../platform/idempotency/idempotency.tables.js';

export type { Flag, Timestamp } from './columns.js';
export type * from './foundation.tables.js';

/** Every table. */
export interface DB
  extends
    FoundationTables,
    DirectoryTables,
    AddressBookTables,
    CallTables,
    OrganisationTables,
    TimeTables,
    AbsencesTables,
    SchedulingTables,
    RoutingTables,
    ConfigPushTables,
    JobTables,
    WebhookTables,
    LeaseTables,
    AuditTables,
    EventTables,
    LiveEventTables,
    IdempotencyTables {}
