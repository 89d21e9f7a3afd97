import { randomUUID } from 'node:crypto';
import type { Selectable, Transaction, Updateable } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { DB } from '../../../db/schema.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { AppContext } from '../../../platform/context.js';
import { NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import { findUsages, refuseWhileUsed } from '../../../platform/references.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { pbxCountry, toE164 } from '../../directory/index.js';
import { guardedRoutingWrite } from '../graph/guard.js';
import type { CallFlowTable } from '../routing.tables.js';
import { nodeExits, type CallFlowNode } from './call-flow-nodes.js';
import type { CreateCallFlowBody, UpdateCallFlowBody } from './call-flows.schemas.js';
import { findCallFlow, insertCallFlow, listCallFlows, replaceCallFlowReferences, updateCallFlow, type CallFlowFilters } from './call-flows.queries.js';

export type CallFlowRow = Selectable<CallFlowTable>;
const NOT_FOUND = 'Call flow not found.';

/**
 * The body's own consistency, named by the body's fields: keys unique, the entry and every exit
 * a node of the flow, open hours that close after they open, numbers that can be dialled. What
 * the nodes point at (and loops, unreachable nodes, a missing closed branch) is the routing
 * graph's check, run by guardedRoutingWrite.
 */
function normaliseNodes(entry: string, nodes: CallFlowNode[], country: string): CallFlowNode[] {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const keys = new Map<string, number>();
  nodes.forEach((node, index) => {
    if (keys.has(node.key)) add(`nodes.${index}.key`, `The key "${node.key}" is already used by node ${keys.get(node.key)}.`);
    else keys.set(node.key, index);
  });
  if (!keys.has(entry)) add('entry', `The entry "${entry}" is not the key of a node.`);
  const normalised = nodes.map((node, index) => {
    for (const exit of nodeExits(node)) if (exit.key !== null && !keys.has(exit.key)) add(`nodes.${index}.${exit.field}`, `No node has the key "${exit.key}".`);
    if (node.type === 'forward') {
      const number = toE164(node.number, country);
      if (!number) add(`nodes.${index}.number`, 'The number field must be a valid phone number.');
      return { ...node, number: number ?? node.number };
    }
    if (node.type === 'time_condition') {
      node.open_hours.forEach((range, r) => {
        if (range.to <= range.from) add(`nodes.${index}.open_hours.${r}.to`, 'The closing time must be after the opening time.');
      });
      return {
        ...node,
        public_holidays_country: node.public_holidays_country === undefined ? country : node.public_holidays_country,
        tenant_holidays: node.tenant_holidays ?? true,
      };
    }
    return node;
  });
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return normalised.map((node) => JSON.parse(JSON.stringify(node)) as CallFlowNode);
}

/** Call flows of the PBX; every write checked against the whole routing graph. */
export class CallFlowsService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: CallFlowFilters, sort: SortTerm[], page: PageRequest) {
    return listCallFlows(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string, db = this.ctx.db): Promise<CallFlowRow> {
    const row = await findCallFlow(db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  usedBy(tenant: Tenant, id: string) {
    return findUsages(this.ctx.db, tenant, 'call_flow', id);
  }

  async create(tenant: Tenant, body: Static<typeof CreateCallFlowBody>): Promise<CallFlowRow> {
    const nodes = normaliseNodes(body.entry, body.nodes, await pbxCountry(this.ctx, tenant));
    const now = this.ctx.clock.now().toISOString();
    const id = randomUUID();
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        await insertCallFlow(trx, {
          id,
          pbx_id: tenant.pbxId,
          name: body.name,
          description: body.description ?? null,
          entry: body.entry,
          nodes: JSON.stringify(nodes),
          created_at: now,
          updated_at: now,
        });
        await replaceCallFlowReferences(trx, tenant, id, nodes);
        return this.get(tenant, id, trx);
      },
      (flow) => ({ type: 'call_flow', id, action: 'created', name: flow.name }),
    );
  }

  async update(tenant: Tenant, id: string, body: Static<typeof UpdateCallFlowBody>): Promise<CallFlowRow> {
    const row = await this.get(tenant, id);
    const entry = body.entry ?? row.entry;
    const nodes =
      body.nodes || body.entry ? normaliseNodes(entry, body.nodes ?? (JSON.parse(row.nodes) as CallFlowNode[]), await pbxCountry(this.ctx, tenant)) : null;
    const changes: Updateable<CallFlowTable> = { updated_at: this.ctx.clock.now().toISOString() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (nodes) {
      changes.entry = entry;
      changes.nodes = JSON.stringify(nodes);
    }
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        await updateCallFlow(trx, tenant, id, changes);
        if (nodes) await replaceCallFlowReferences(trx, tenant, id, nodes);
        return this.get(tenant, id, trx);
      },
      (flow) => ({ type: 'call_flow', id, action: 'updated', name: flow.name }),
    );
  }

  /** Soft delete, refused (409 with the list) while numbers, IVR steps, other flows, queues or contacts route into it. */
  async delete(tenant: Tenant, id: string): Promise<void> {
    const flow = await this.get(tenant, id);
    await guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx) => {
        await refuseWhileUsed(trx, tenant, 'call_flow', id, 'call flow');
        await softDelete(trx, this.ctx.clock, 'call_flows', tenant, id, NOT_FOUND);
      },
      () => ({ type: 'call_flow', id, action: 'deleted', name: flow.name }),
    );
  }

  async restore(tenant: Tenant, id: string): Promise<CallFlowRow> {
    return guardedRoutingWrite(
      this.ctx,
      tenant,
      async (trx: Transaction<DB>) => {
        await restore(trx, this.ctx.clock, 'call_flows', tenant, id, NOT_FOUND);
        return this.get(tenant, id, trx);
      },
      (flow) => ({ type: 'call_flow', id, action: 'restored', name: flow.name }),
    );
  }
}
