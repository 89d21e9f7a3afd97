/**
 * Who may open a live event stream, and ask for a ticket to: every principal bound to a PBX that
 * may receive events (users, the PBX key, integration keys of any scope, the PBX server's key);
 * each receives only the events `mayReceive` lets through. Internal keys receive none.
 */
export const STREAM_AUTH = { user: true, pbx: true, integration: [], pbxServer: true } as const;
