/** Who may use the routing resources: anyone of the PBX or a `call-routing` key reads; an administrator writes. */
export const ROUTING_READ = { user: true, pbx: true, integration: ['call-routing'] } as const;
export const ROUTING_MANAGE = { user: 'admin' } as const;
