import type { Transaction } from 'kysely';
import { lockReferences } from '../../../platform/references.js';
import type { DB } from '../../../db/schema.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { verifyShapes } from '../../../db/reusable-query.js';
import { problemsError, problemsOf, routingProblems, type RoutingProblem } from './validate.js';
import { publishRoutingChange, type RoutingChange } from '../events.js';
import { loadRoutingState, routingCache, sameState, type RoutingState } from './cache.js';
import { patchRoutingGraph } from './patch.js';

/** Whether a patched graph is compared with a full load (under the test runner; a statement count turns it off). */
export const patchedGraphCheck = { enabled: verifyShapes };

/** The problems of `after` with severity error that `before` did not have (a problem is its code at its path). */
function introducedProblems(before: RoutingProblem[], after: RoutingProblem[]): RoutingProblem[] {
  const known = new Set(before.map((p) => `${p.code} ${p.path}`));
  return after.filter((p) => p.severity === 'error' && !known.has(`${p.code} ${p.path}`));
}

/**
 * Every write of routing runs here: in one transaction (the tenant's routing writes one at a time
 * on PostgreSQL, SQLite writes one at a time anyway), the tenant's routing graph is checked before
 * and after the write, and a write that brings a new problem (a loop without a caller choice, a
 * dangling target, ...) is rolled back with 422 naming each problem's path. Problems that were
 * there before (a user disabled since) do not block unrelated changes. `changed` names what the
 * write changed, from its result: its live event is published last, once the checks passed.
 *
 * The graph before is the cached one (graph/cache.ts): the write first moves the tenant's routing
 * version, which holds it (on PostgreSQL the row stays locked until the transaction ends, so no
 * other change of what the graph reads commits meanwhile) and names the version just before it.
 * The graph after is that graph with what the write changed read again (graph/patch.ts); only a
 * write that brings a problem reads the whole graph again, so its answer lists the problems as a
 * full check does. Under the test runner every patched graph is also compared with a full load.
 */
export async function guardedRoutingWrite<T>(
  ctx: AppContext,
  tenant: Tenant,
  write: (trx: Transaction<DB>) => Promise<T>,
  changed: (result: T) => RoutingChange,
): Promise<T> {
  const cache = routingCache(ctx.db);
  const kept: { version?: bigint; state?: RoutingState; problems?: RoutingProblem[] } = {};
  const result = await ctx.db.transaction().execute(async (trx) => {
    await lockReferences(trx, ctx.dialect, tenant);
    const claimed = await trx
      .updateTable('routing_versions')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('pbx_id', '=', tenant.pbxId)
      .returning('version')
      .executeTakeFirst();
    if (!claimed) return uncachedWrite(ctx, trx, tenant, write, changed);
    const { state: before, problems: beforeProblems } = await cache.at(trx, tenant, BigInt(claimed.version) - 1n);
    const result = await write(trx);
    const change = changed(result);
    const after: RoutingState = { graph: await patchRoutingGraph(trx, tenant, before.graph, change), numbers: before.numbers };
    if (patchedGraphCheck.enabled) {
      const loaded = await loadRoutingState(trx, tenant);
      if (!sameState(after, loaded)) throw new Error(`the routing graph patched after a write of ${change.type} ${change.id} differs from the database's`);
    }
    const afterProblems = problemsOf(after.graph, after.numbers);
    const introduced = introducedProblems(beforeProblems, afterProblems);
    if (introduced.length > 0) {
      // The answer lists them as a full check orders them (the patched maps keep another order).
      const full = await routingProblems(trx, tenant);
      throw problemsError(introducedProblems(beforeProblems, full));
    }
    await publishRoutingChange(ctx, trx, tenant, change);
    const version = await cache.version(trx, tenant);
    if (version !== null) Object.assign(kept, { version, state: after, problems: afterProblems });
    return result;
  });
  if (kept.version !== undefined && kept.state && kept.problems) cache.keep(tenant, kept.version, kept.state, kept.problems);
  return result;
}

/** A tenant without a routing version (none is made only by hand): both checks read the whole graph. */
async function uncachedWrite<T>(
  ctx: AppContext,
  trx: Transaction<DB>,
  tenant: Tenant,
  write: (trx: Transaction<DB>) => Promise<T>,
  changed: (result: T) => RoutingChange,
): Promise<T> {
  const before = await routingProblems(trx, tenant);
  const result = await write(trx);
  const after = await routingProblems(trx, tenant);
  const introduced = introducedProblems(before, after);
  if (introduced.length > 0) throw problemsError(introduced);
  await publishRoutingChange(ctx, trx, tenant, changed(result));
  return result;
}
