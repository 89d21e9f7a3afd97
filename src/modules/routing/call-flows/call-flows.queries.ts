import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CallFlowTable } from '../routing.tables.js';
import { nodeTargets, type CallFlowNode } from './call-flow-nodes.js';

export interface CallFlowFilters {
  search?: string;
  trashed?: TrashedFilter;
  nodeType?: string;
  targetId?: string;
}

/** What selects call flows: the tenant, and each filter that is set (`search` and the node type as patterns). */
interface CallFlowScope {
  pbxId: string;
  search?: string;
  trashed?: TrashedFilter;
  nodeTypePattern?: string;
  targetId?: string;
}

function flowsOf(db: Kysely<DB>, scope: CallFlowScope) {
  let query = trashedScope(db.selectFrom('call_flows').where('pbx_id', '=', scope.pbxId), scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name', 'description'], scope.search));
  if (scope.nodeTypePattern) query = query.where('nodes', 'like', scope.nodeTypePattern);
  if (scope.targetId) {
    const targetId = scope.targetId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('call_flow_references')
          .select(sql`1`.as('one'))
          .whereRef('call_flow_references.call_flow_id', '=', 'call_flows.id')
          .where('call_flow_references.target_id', '=', targetId),
      ),
    );
  }
  return query;
}

const callFlowPage = pagedQuery({ scoped: flowsOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listCallFlows(db: Kysely<DB>, tenant: Tenant, filters: CallFlowFilters, sort: SortTerm[], page: PageRequest) {
  const { nodeType, ...others } = filters;
  // Node types sit in the JSON text, written by the service as `"type":"x"` (x one of NODE_TYPES).
  const nodeTypePattern = nodeType ? `%"type":"${nodeType}"%` : undefined;
  return callFlowPage(db, { pbxId: tenant.pbxId, ...others, search: searchPattern(filters.search), nodeTypePattern }, sort, page);
}

export function findCallFlow(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  return flowsOf(db, { pbxId: tenant.pbxId, trashed: options.withTrashed ? 'with' : 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertCallFlow(db: Kysely<DB>, row: Insertable<CallFlowTable>): Promise<void> {
  await db.insertInto('call_flows').values(row).execute();
}

export async function updateCallFlow(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<CallFlowTable>): Promise<void> {
  await db.updateTable('call_flows').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/** Rewrites what the flow's nodes point at (read by "who uses X" and `filter[target_id]`). */
export async function replaceCallFlowReferences(db: Kysely<DB>, tenant: Tenant, flowId: string, nodes: CallFlowNode[]): Promise<void> {
  await db.deleteFrom('call_flow_references').where('call_flow_id', '=', flowId).execute();
  const rows = nodes.flatMap((node) =>
    nodeTargets(node).map((target) => ({
      call_flow_id: flowId,
      pbx_id: tenant.pbxId,
      target_type: target.type,
      target_id: target.id,
      node_key: node.key,
      field: target.field,
    })),
  );
  if (rows.length > 0) await db.insertInto('call_flow_references').values(rows).execute();
}
