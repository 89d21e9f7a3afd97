import type { CallFlowNode } from '../call-flows/call-flow-nodes.js';
import type { RoutingGraph } from '../graph/model.js';
import { DiagramBuilder } from './diagram.js';
import { toMermaid } from './render.js';

/**
 * A small routing drawn by the real renderer for the docs page: a number into a call flow whose
 * time condition sends open hours to a menu (1 sales, no key the support queue) and the rest to
 * voicemail. Made from the graph's own models, so the example is what the endpoints answer.
 */
function exampleGraph(): RoutingGraph {
  const flow = (id: string, name: string, nodes: CallFlowNode[]) =>
    [id, { id, name, entry: nodes[0].key, nodes, byKey: new Map(nodes.map((node) => [node.key, node])) }] as const;
  const user = (name: string) => ({ name, active: true, dnd: false });
  return {
    flows: new Map([
      flow('main', 'Main number', [
        { key: 'hours', type: 'time_condition', open_hours: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' }], open: 'menu', closed: 'mailbox' },
        { key: 'menu', type: 'ivr', ivr_id: 'menu' },
        { key: 'mailbox', type: 'voicemail', user_id: 'anna' },
      ]),
      flow('sales', 'Sales', [{ key: 'ring', type: 'ring_user', user_id: 'anna', timeout_seconds: 20 }]),
      flow('support', 'Support', [{ key: 'queue', type: 'queue', queue_id: 'support' }]),
    ]),
    ivrs: new Map([
      [
        'menu',
        {
          id: 'menu',
          name: 'Main menu',
          defaultAction: 'default_step',
          timeoutSeconds: 6,
          maxRepeats: 0,
          announcementId: 'welcome',
          musicOnHoldId: null,
          language: null,
          steps: new Map([
            ['1', { id: 'key-1', option: '1', name: 'Sales', target: { type: 'call_flow', id: 'sales' }, language: null }],
            ['default', { id: 'key-default', option: 'default', name: 'Support', target: { type: 'call_flow', id: 'support' }, language: null }],
          ]),
        },
      ],
    ]),
    queues: new Map([
      [
        'support',
        {
          id: 'support',
          name: 'Support',
          strategy: 'ringall',
          maxWaitSeconds: 120,
          maxCallers: null,
          memberTimeoutSeconds: 20,
          wrapUpSeconds: 0,
          announcementId: null,
          musicOnHoldId: null,
          overflow: { type: 'voicemail', id: 'anna', number: null },
          members: [{ type: 'user', id: 'ben', penalty: 0 }],
        },
      ],
    ]),
    known: { call_flow: new Map(), ivr: new Map(), queue: new Map(), sound_file: new Map(), user: new Map(), extension: new Map() },
    soundTypes: new Map(),
    users: new Map([
      ['anna', user('Anna Schmit')],
      ['ben', user('Ben Weber')],
    ]),
    extensions: new Map(),
    country: 'LU',
    timezone: 'Europe/Luxembourg',
    halfDaySplit: '12:00',
  };
}

/** The example's Mermaid: the number +35227123400 and where it leads, down to the queue's member and the voicemail. */
export function exampleMermaid(): string {
  const builder = new DiagramBuilder(exampleGraph());
  builder.number({ id: 'main-line', number: '+35227123400', label: 'Main line', destination_type: 'call_flow', destination_id: 'main' });
  return toMermaid(builder.finish('Route of +35227123400 (Main line)'));
}
