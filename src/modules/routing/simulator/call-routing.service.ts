import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { NotFound } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { toE164 } from '../../directory/index.js';
import { loadRoutingGraph } from '../graph/model.js';
import { routingProblems } from '../graph/validate.js';
import { RouteSimulation } from './simulate.js';
import type { Simulation, SimulateBody } from './simulator.schemas.js';
import { localInstant } from './time-condition.js';

export class CallRoutingService {
  constructor(private readonly ctx: AppContext) {}

  async validate(tenant: Tenant) {
    const problems = await routingProblems(this.ctx.db, tenant);
    return { valid: problems.every((problem) => problem.severity !== 'error'), problems };
  }

  async simulate(tenant: Tenant, body: Static<typeof SimulateBody>): Promise<Static<typeof Simulation>> {
    const graph = await loadRoutingGraph(this.ctx.db, tenant);
    const dialled = toE164(body.number, graph.country);
    const number = dialled
      ? await this.ctx.db
          .selectFrom('phone_numbers')
          .select(['id', 'number', 'label', 'destination_type', 'destination_id'])
          .where('pbx_id', '=', tenant.pbxId)
          .where('number', '=', dialled)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      : undefined;
    if (!number) throw new NotFound('Phone number not found.');
    const at = body.at ? new Date(body.at) : this.ctx.clock.now();
    const local = localInstant(at, graph.timezone);
    const simulation = new RouteSimulation(this.ctx.db, tenant, graph, body, local);
    const label = number.label ? ` (${number.label})` : '';
    const routed = number.destination_type !== 'none' && number.destination_id;
    simulation.steps.push({
      kind: 'number',
      type: 'phone_number',
      id: number.id,
      name: number.number,
      node_key: null,
      outcome: routed ? 'routed' : 'hung_up',
      reason: routed
        ? `${number.number}${label} is dialled${body.caller ? ` by ${body.caller}` : ''}; it routes to a ${number.destination_type.replace('_', ' ')}.`
        : `${number.number}${label} routes nowhere: the call is hung up.`,
      language: null,
    });
    const result = routed
      ? await simulation.run({ at: 'target', type: number.destination_type, id: number.destination_id, via: `phone number ${number.number}` })
      : 'hung_up';
    return {
      number: number.number,
      caller: body.caller ?? null,
      at: at.toISOString(),
      local_time: local.label,
      result,
      answered_by: simulation.answeredBy,
      steps: simulation.steps,
      problems: simulation.problems,
    };
  }
}
