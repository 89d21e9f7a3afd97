/** The OpenAPI tag of the live events' operations (http/openapi-document.ts describes it). */
export const LIVE_EVENTS_TAGS = ['Live events'];
