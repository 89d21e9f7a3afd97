/**
 * Live events: the PBX's events as they commit, streamed to its clients (Server-Sent Events and
 * WebSocket) with resume, filters and one-time tickets for browsers. The events themselves, their
 * kinds and who may receive them are platform/events'; the domains publish them.
 */
import type { RoutePlugin } from '../../platform/context.js';
import { livePageRoutes } from './live-page/live-page.routes.js';
import { eventStreamRoutes } from './stream/event-stream.routes.js';
import { eventTicketRoutes } from './tickets/event-tickets.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const eventsRoutes: RoutePlugin[] = [eventTicketRoutes, eventStreamRoutes, livePageRoutes];
