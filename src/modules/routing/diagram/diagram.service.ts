import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { AppContext } from '../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { findPhoneNumber, sipDevicesOfExtensions, sipDevicesOfUsers, twinningsOfUsers } from '../../directory/index.js';
import { routingCache } from '../graph/cache.js';
import type { RoutingGraph } from '../graph/model.js';
import { DiagramBuilder, type Diagram, type RungDevices } from './diagram.js';
import { highlightPath, type PathStep } from './highlight.js';
import { toDot, toMermaid } from './render.js';
import { renderSvg } from './svg.js';

export type DiagramFormat = 'mermaid' | 'svg';

/**
 * The most boxes drawn as SVG. Graphviz lays the picture out in the request's thread, and its time
 * grows much faster than the boxes (measured on chained flows: 280 boxes 0.4-0.8 s, 840 boxes 5 s,
 * 2,040 boxes 20-70 s); Mermaid text costs milliseconds at any size and is laid out by its reader.
 */
export const MAX_SVG_BOXES = 300;

/** A phone number as the diagram starts from it. */
export interface NumberStart {
  id: string;
  number: string;
  label: string | null;
  destination_type: string;
  destination_id: string | null;
}

/** The devices that ring for the users and extensions of the picture (the directory's, live and enabled). */
async function rungDevices(db: Kysely<DB>, tenant: Tenant, builder: DiagramBuilder): Promise<RungDevices> {
  const [devices, twinnings, extensionDevices] = await Promise.all([
    sipDevicesOfUsers(db, tenant, builder.rungUsers),
    twinningsOfUsers(db, tenant, builder.rungUsers),
    sipDevicesOfExtensions(db, tenant, builder.rungExtensions),
  ]);
  const ofUser: RungDevices['ofUser'] = new Map();
  const ofExtension: RungDevices['ofExtension'] = new Map();
  const add = (map: Map<string, Array<{ key: string; lines: string[] }>>, owner: string, device: { key: string; lines: string[] }) => {
    const list = map.get(owner);
    if (list) list.push(device);
    else map.set(owner, [device]);
  };
  const sip = (device: { id: string; name: string; model: string | null }) => ({
    key: `device:${device.id}`,
    lines: ['SIP device', device.name, ...(device.model ? [device.model] : [])],
  });
  for (const device of devices) if (device.enabled && device.user_id) add(ofUser, device.user_id, sip(device));
  for (const twinning of twinnings) {
    if (twinning.status !== 'enabled') continue;
    const delay = twinning.delay > 0 ? [`after ${twinning.delay} s`] : [];
    add(ofUser, twinning.user_id, {
      key: `twinning:${twinning.id}`,
      lines: [twinning.type === 'teams' ? 'Teams twinning' : 'Mobile twinning', ...(twinning.phone_number ? [twinning.phone_number] : []), ...delay],
    });
  }
  for (const extension of builder.rungExtensions) {
    for (const device of extensionDevices)
      if (device.enabled && (device.roaming_extension_id ?? device.extension_id) === extension) add(ofExtension, extension, sip(device));
  }
  return { ofUser, ofExtension };
}

/**
 * Pictures of the routing: a phone number's route, a call flow's or an IVR's, drawn from the same
 * routing graph the simulator walks and validation checks, as Mermaid text or as SVG rendered here
 * (Graphviz in WebAssembly).
 */
export class DiagramService {
  constructor(private readonly ctx: AppContext) {}

  async ofNumber(tenant: Tenant, id: string): Promise<Diagram> {
    const number = await findPhoneNumber(this.ctx.db, tenant, id);
    if (!number) throw new NotFound('Phone number not found.');
    const graph = await this.graph(tenant);
    const builder = new DiagramBuilder(graph);
    builder.number(number);
    return this.finish(tenant, builder, `Route of ${number.number}${number.label ? ` (${number.label})` : ''}`);
  }

  async ofCallFlow(tenant: Tenant, id: string): Promise<Diagram> {
    const graph = await this.graph(tenant);
    const builder = new DiagramBuilder(graph);
    if (!builder.start('call_flow', id)) throw new NotFound('Call flow not found.');
    return this.finish(tenant, builder, `Call flow: ${graph.flows.get(id)!.name}`);
  }

  async ofIvr(tenant: Tenant, id: string): Promise<Diagram> {
    const graph = await this.graph(tenant);
    const builder = new DiagramBuilder(graph);
    if (!builder.start('ivr', id)) throw new NotFound('IVR not found.');
    return this.finish(tenant, builder, `IVR menu: ${graph.ivrs.get(id)!.name}`);
  }

  /**
   * A simulated call's picture: the number's route (and a known caller's own routing before it)
   * drawn from the graph the simulation walked, its path highlighted.
   */
  async ofSimulation(
    tenant: Tenant,
    graph: RoutingGraph,
    call: {
      number: NumberStart;
      caller: { id: string; name: string; type: string; targetId: string } | null;
      steps: PathStep[];
      answeredBy: { type: string; id: string } | null;
      title: string;
    },
  ): Promise<Diagram> {
    const builder = new DiagramBuilder(graph);
    const start = builder.number(call.number);
    if (call.caller) builder.callerRoute(start, call.caller, call.caller.type, call.caller.targetId);
    const diagram = await this.finish(tenant, builder, call.title);
    highlightPath(diagram, call.steps, call.answeredBy);
    return diagram;
  }

  /** The picture as Mermaid or SVG; `field` names the request's choice of format in a 422 for an SVG too large to draw. */
  async render(diagram: Diagram, format: DiagramFormat, field: string): Promise<string> {
    if (format === 'mermaid') return toMermaid(diagram);
    if (diagram.nodes.length > MAX_SVG_BOXES)
      throw ValidationFailed.field(
        field,
        `This picture has ${diagram.nodes.length} boxes; the server draws at most ${MAX_SVG_BOXES} as SVG. Ask for mermaid, or for the picture of one call flow or IVR.`,
      );
    return renderSvg(toDot(diagram));
  }

  /** The tenant's routing graph as the simulator and validation read it (cached per routing version). */
  private async graph(tenant: Tenant): Promise<RoutingGraph> {
    return (await routingCache(this.ctx.db).current(this.ctx.db, tenant)).graph;
  }

  private async finish(tenant: Tenant, builder: DiagramBuilder, title: string): Promise<Diagram> {
    // Drawn first, so the devices are looked up for the users and extensions the picture rings.
    builder.complete();
    return builder.finish(title, await rungDevices(this.ctx.db, tenant, builder));
  }
}
