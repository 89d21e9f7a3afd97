/**
 * Who may use the routing resources: anyone of the PBX, its PBX API key, its PBX server (which
 * fetches the sound files a pushed configuration names) or a `call-routing` key reads; an
 * administrator writes.
 */
export const ROUTING_READ = { user: true, pbx: true, pbxServer: true, integration: ['call-routing'] } as const;
export const ROUTING_MANAGE = { user: 'admin' } as const;
