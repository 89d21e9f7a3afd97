import type { Transaction } from 'kysely';
import { lockReferences } from '../../../platform/references.js';
import type { DB } from '../../../db/schema.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { problemsError, routingProblems, type RoutingProblem } from './validate.js';
import { publishRoutingChange, type RoutingChange } from '../events.js';

const sameProblem = (a: RoutingProblem, b: RoutingProblem) => a.code === b.code && a.path === b.path;

/**
 * Every write of routing runs here: in one transaction (the tenant's routing writes one at a time
 * on PostgreSQL, SQLite writes one at a time anyway), the tenant's routing graph is checked before
 * and after the write, and a write that brings a new problem (a loop without a caller choice, a
 * dangling target, ...) is rolled back with 422 naming each problem's path. Problems that were
 * there before (a user disabled since) do not block unrelated changes. `changed` names what the
 * write changed, from its result: its live event is published last, once the checks passed.
 */
export async function guardedRoutingWrite<T>(
  ctx: AppContext,
  tenant: Tenant,
  write: (trx: Transaction<DB>) => Promise<T>,
  changed: (result: T) => RoutingChange,
): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockReferences(trx, ctx.dialect, tenant);
    const before = await routingProblems(trx, tenant);
    const result = await write(trx);
    const after = await routingProblems(trx, tenant);
    const introduced = after.filter((problem) => problem.severity === 'error' && !before.some((old) => sameProblem(old, problem)));
    if (introduced.length > 0) throw problemsError(introduced);
    await publishRoutingChange(ctx, trx, tenant, changed(result));
    return result;
  });
}
