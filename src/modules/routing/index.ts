/**
 * Call routing: sound files, IVR menus and their steps, call flows (typed nodes, time
 * conditions), queues; the routing graph's validation and the route simulator. Phone numbers of
 * the directory point into it; config-push compiles it.
 */
import type { RoutePlugin } from '../../platform/context.js';
import './usages.js';
import { soundFileRoutes } from './sound-files/sound-files.routes.js';
import { ivrRoutes } from './ivrs/ivrs.routes.js';
import { callFlowRoutes } from './call-flows/call-flows.routes.js';
import { queueRoutes } from './queues/queues.routes.js';
import { callRoutingRoutes } from './simulator/call-routing.routes.js';
import { diagramRoutes } from './diagram/diagram.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const routingRoutes: RoutePlugin[] = [soundFileRoutes, ivrRoutes, callFlowRoutes, queueRoutes, callRoutingRoutes, diagramRoutes];
export { seedRouting, lengthenDemoSupportRing } from './routing.seed.js';
/** What config-push compiles: the tenant's live routing in the graph's own models, and the node types of a call flow. */
export type { CallFlowNode } from './call-flows/call-flow-nodes.js';
export {
  loadRoutingConfiguration,
  type RoutingConfiguration,
  type RoutingSoundFile,
  type RoutingCallFlow,
  type RoutingIvr,
  type RoutingIvrStep,
} from './graph/configuration.js';
export type { QueueModel } from './graph/model.js';
/** The routing frozen with a configuration version, and a call routed by it (the simulated PBX). */
export { routingSnapshot, routeBySnapshot, type RoutedCall } from './graph/snapshot.js';
/** The names of the queues a call went through (the calls domain's call records). */
export { queueNamesOf } from './queues/queues.queries.js';
