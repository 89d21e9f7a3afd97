/**
 * Names a tenant owns on its Asterisk, shared by the configuration compiler (which writes them) and
 * the calls engine (which originates into them). Several tenants may share one Asterisk: every
 * context, template, queue, class and file the push writes starts with the tenant's prefix.
 */

/** A UUID as 32 lower-case hex digits, for names; null for anything that is not a UUID. */
export function compactId(id: string | null | undefined): string | null {
  return typeof id === 'string' && /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(id) ? id.replace(/-/g, '').toLowerCase() : null;
}

/**
 * The tenant's prefix for every name it owns: `t` and its id's hex digits (a UUID gives 33
 * characters, so `<prefix>-flow-<32 hex>` stays under Asterisk's 79-character context names).
 * It is also the tenant's main dialplan context, where its devices call from and click-to-call starts.
 */
export function tenantPrefix(pbxId: string): string {
  const hex = compactId(pbxId) ?? pbxId.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (!hex) throw new Error('A PBX id without letters or digits cannot name its configuration.');
  return `t${hex.slice(0, 32)}`;
}

/** The context the calls engine rings several endpoints at once through (`PBXAPI_RING` holds them). */
export const ringContext = (prefix: string) => `${prefix}-ring`;
/** The context external numbers leave through the host's trunk from. */
export const ringExternalContext = (prefix: string) => `${prefix}-ring-external`;

/**
 * The name a configuration file of the tenant has on the Asterisk host: `pjsip.conf` is written as
 * `pbxapi-pjsip-<prefix>.conf`, which the host's own `pjsip.conf` reads with
 * `#tryinclude "pbxapi-pjsip-*.conf"` (README, "The operator's Asterisk").
 */
export function hostFileName(file: string, prefix: string): string {
  return `pbxapi-${file.replace(/\.conf$/, '')}-${prefix}.conf`;
}
