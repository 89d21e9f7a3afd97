import type { Migration } from 'kysely';
import * as foundation from './0001_foundation.js';
import * as directory from './0002_directory.js';
import * as addressBook from './0003_address_book.js';
import * as jobsWebhooks from './0004_jobs_webhooks.js';
import * as calls from './0005_calls.js';
import * as leases from './0006_leases.js';
import * as auditEvents from './0007_audit_events.js';
import * as webhookSigningSecrets from './0008_webhook_signing_secrets.js';
import * as internalKeyTenants from './0009_internal_key_tenants.js';
import * as workforce from './0010_workforce.js';
import * as absenceRequests from './0011_absence_requests.js';
import * as recurringTransactions from './0012_recurring_transactions.js';
import * as schedules from './0013_schedules.js';
import * as importProgress from './0014_import_progress.js';
import * as importFiles from './0015_import_files.js';
import * as callRouting from './0016_call_routing.js';
import * as amiEngine from './0017_ami_engine.js';
import * as configPush from './0018_config_push.js';
import * as amiTenantContext from './0019_ami_tenant_context.js';
import * as pbxText from './0020_pbx_text.js';
import * as soundPlayable from './0021_sound_playable.js';
import * as events from './0022_events.js';
import * as webhookSubscriptions from './0023_webhook_subscriptions.js';
import * as eventTickets from './0024_event_tickets.js';
import * as internalWebhookSubscriptions from './0025_internal_webhook_subscriptions.js';
import * as idempotency from './0026_idempotency.js';
import * as routingVersions from './0027_routing_versions.js';

/** Every migration in order; the name is the version recorded in the database. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_directory': directory,
  '0003_address_book': addressBook,
  '0004_jobs_webhooks': jobsWebhooks,
  '0005_calls': calls,
  '0006_leases': leases,
  '0007_audit_events': auditEvents,
  '0008_webhook_signing_secrets': webhookSigningSecrets,
  '0009_internal_key_tenants': internalKeyTenants,
  '0010_workforce': workforce,
  '0011_absence_requests': absenceRequests,
  '0012_recurring_transactions': recurringTransactions,
  '0013_schedules': schedules,
  '0014_import_progress': importProgress,
  '0015_import_files': importFiles,
  '0016_call_routing': callRouting,
  '0017_ami_engine': amiEngine,
  '0018_config_push': configPush,
  '0019_ami_tenant_context': amiTenantContext,
  '0020_pbx_text': pbxText,
  '0021_sound_playable': soundPlayable,
  '0022_events': events,
  '0023_webhook_subscriptions': webhookSubscriptions,
  '0024_event_tickets': eventTickets,
  '0025_internal_webhook_subscriptions': internalWebhookSubscriptions,
  '0026_idempotency': idempotency,
  '0027_routing_versions': routingVersions,
};
