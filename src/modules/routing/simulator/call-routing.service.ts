import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { NotFound } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { numberDestination, toE164 } from '../../directory/index.js';
import { callerRoute } from '../../address-book/index.js';
import { routingCache } from '../graph/cache.js';
import { RouteSimulation } from './simulate.js';
import type { Simulation, SimulateBody } from './simulator.schemas.js';
import { localInstant } from './time-condition.js';
import { DiagramService } from '../diagram/diagram.service.js';
import { DIAGRAM_MEDIA_TYPES } from '../diagram/diagram.schemas.js';

const PARSED_NUMBERS = 1024;
/** Numbers already parsed, by the PBX's country and the text given (a bounded set, oldest out first). */
const parsedNumbers = new Map<string, string | null>();

/**
 * `toE164` of a dialled or calling number, parsed once per country and text: an admin simulates
 * the same few numbers again and again, and libphonenumber's parse is a good part of a simulation.
 */
function dialledE164(raw: string, country: string): string | null {
  const key = `${country}\u0000${raw}`;
  const known = parsedNumbers.get(key);
  if (known !== undefined) return known;
  const e164 = toE164(raw, country);
  if (parsedNumbers.size >= PARSED_NUMBERS) parsedNumbers.delete(parsedNumbers.keys().next().value as string);
  parsedNumbers.set(key, e164);
  return e164;
}

export class CallRoutingService {
  constructor(private readonly ctx: AppContext) {}

  async validate(tenant: Tenant) {
    const problems = await routingCache(this.ctx.db).problems(this.ctx.db, tenant);
    return { valid: problems.every((problem) => problem.severity !== 'error'), problems };
  }

  async simulate(tenant: Tenant, body: Static<typeof SimulateBody>): Promise<Static<typeof Simulation>> {
    const { graph } = await routingCache(this.ctx.db).current(this.ctx.db, tenant);
    const dialled = dialledE164(body.number, graph.country);
    const number = dialled ? await numberDestination(this.ctx.db, tenant, dialled) : undefined;
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
    // A known caller's own routing comes first, as on the PBX.
    const callerNumber = body.caller ? dialledE164(body.caller, graph.country) : null;
    const byCaller = callerNumber ? await callerRoute(this.ctx.db, tenant, callerNumber) : null;
    if (byCaller?.type === 'sip_device')
      simulation.steps.push({
        kind: 'contact',
        type: byCaller.source,
        id: byCaller.id,
        name: byCaller.name,
        node_key: null,
        outcome: 'not_simulated',
        reason: `The caller ${callerNumber} is the contact "${byCaller.contact}", whose calls go to a SIP device, which the simulator does not ring: the number's own routing is followed.`,
        language: null,
      });
    if (byCaller && byCaller.type !== 'sip_device') {
      const what =
        byCaller.source === 'contact'
          ? `the contact "${byCaller.contact}", whose calls go`
          : `the contact "${byCaller.contact}" of the group "${byCaller.name}", whose calls from outside go`;
      simulation.steps.push({
        kind: 'contact',
        type: byCaller.source,
        id: byCaller.id,
        name: byCaller.name,
        node_key: null,
        outcome: 'caller_routed',
        reason: `The caller ${callerNumber} is ${what} to a ${byCaller.type.replace('_', ' ')}, before the number's own routing.`,
        language: null,
      });
    }
    const result =
      byCaller && byCaller.type !== 'sip_device'
        ? await simulation.run({ at: 'target', type: byCaller.type, id: byCaller.targetId, via: `the routing of caller ${callerNumber}` })
        : routed
          ? await simulation.run({ at: 'target', type: number.destination_type, id: number.destination_id, via: `phone number ${number.number}` })
          : 'hung_up';
    const answer = {
      number: number.number,
      caller: body.caller ?? null,
      at: at.toISOString(),
      local_time: local.label,
      result,
      answered_by: simulation.answeredBy,
      steps: simulation.steps,
      problems: simulation.problems,
    };
    if (!body.diagram) return answer;
    // The picture of the graph this simulation walked, with its path.
    const diagrams = new DiagramService(this.ctx);
    const picture = await diagrams.ofSimulation(tenant, graph, {
      number,
      caller: byCaller && byCaller.type !== 'sip_device' ? { id: byCaller.id, name: byCaller.contact, type: byCaller.type, targetId: byCaller.targetId } : null,
      steps: simulation.steps,
      answeredBy: simulation.answeredBy,
      title: `Call to ${number.number} on ${local.label}`,
    });
    const content = await diagrams.render(picture, body.diagram, 'diagram');
    return { ...answer, diagram: { format: body.diagram, media_type: DIAGRAM_MEDIA_TYPES[body.diagram], content } };
  }
}
