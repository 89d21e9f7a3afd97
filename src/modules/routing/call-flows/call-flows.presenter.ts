import type { Static } from '@sinclair/typebox';
import type { CallFlowNode } from './call-flow-nodes.js';
import type { CallFlow } from './call-flows.schemas.js';
import type { CallFlowRow } from './call-flows.service.js';

/** A call flow as the contract shows it, its nodes parsed (`used_by` is added when asked for). */
export function presentCallFlow(row: CallFlowRow): Static<typeof CallFlow> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    name: row.name,
    description: row.description,
    entry: row.entry,
    nodes: JSON.parse(row.nodes) as CallFlowNode[],
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
