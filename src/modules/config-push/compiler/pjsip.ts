import { commentText, displayName, extensionNumber, identifier, language } from './escape.js';
import { sortBy, type CompileModel } from './model.js';
import type { ConfigLine, ConfigSection } from './render.js';

/** The API's codec names as Asterisk's format names (`core show codecs`). */
const CODECS: Record<string, string> = { opus: 'opus', g722: 'g722', pcma: 'alaw', pcmu: 'ulaw', g729: 'g729' };
const TRANSPORTS = new Set(['udp', 'tcp', 'tls', 'wss']);

/**
 * pjsip.conf (configs/samples/pjsip.conf.sample): an endpoint, an aor and an auth per live,
 * enabled SIP device whose owner is active, and per WebRTC account. The three objects share the
 * device's SIP user name as their section name (sorcery keeps one namespace per type, as the
 * sample's `[6001]` endpoint/aor/auth do). Common settings live in three templates.
 *
 * - NAT: phones sit behind NAT, the PBX may too: `rtp_symmetric`, `force_rport`,
 *   `rewrite_contact` on, `direct_media` off (media always through the PBX, which also records).
 * - Transports `transport-udp|tcp|tls|wss` are the PBX host's (bind addresses, certificates,
 *   external addresses): they and the carrier trunk `pbxapi-trunk` are defined in the host's own
 *   `pjsip.conf` include, not by the tenant's data (README, "Configuration compiler").
 * - The password is written as a sealed-secret token; only the delivered file has the secret.
 * - `set_var` gives every channel of the endpoint its owner and outgoing caller identity, which
 *   the outbound route reads (`PBXAPI_CID_NUM`, `PBXAPI_CID_NAME`).
 */
export function compilePjsip(model: CompileModel): ConfigSection[] {
  const p = model.prefix;
  const sections: ConfigSection[] = [
    {
      name: `${p}-endpoint`,
      template: true,
      comment: 'Endpoint defaults of the tenant.',
      lines: [
        { key: 'type', value: 'endpoint' },
        { key: 'context', value: model.context },
        { key: 'disallow', value: 'all' },
        { key: 'direct_media', value: 'no' },
        { key: 'rtp_symmetric', value: 'yes' },
        { key: 'force_rport', value: 'yes' },
        { key: 'rewrite_contact', value: 'yes' },
        { key: 'dtmf_mode', value: 'rfc4733' },
        { key: 'send_pai', value: 'yes' },
      ],
    },
    {
      name: `${p}-aor`,
      template: true,
      comment: 'One registration per device: a new one replaces the old.',
      lines: [
        { key: 'type', value: 'aor' },
        { key: 'max_contacts', value: '1' },
        { key: 'remove_existing', value: 'yes' },
        { key: 'qualify_frequency', value: '60' },
      ],
    },
    {
      name: `${p}-auth`,
      template: true,
      lines: [
        { key: 'type', value: 'auth' },
        { key: 'auth_type', value: 'userpass' },
      ],
    },
  ];

  const endpointNames = new Set<string>();
  for (const device of sortBy(model.snapshot.sipDevices, (d) => d.username)) {
    const name = model.endpoint(device);
    if (!name || !model.deviceUsable(device) || endpointNames.has(name)) continue;
    endpointNames.add(name);
    const owner = device.roamingUserId ?? device.userId;
    const extensionId = device.roamingExtensionId ?? device.extensionId;
    const extension = extensionId ? model.extensions.get(extensionId) : undefined;
    const codecs = device.codecs.map((c) => CODECS[c]).filter((c): c is string => Boolean(c));
    const transport = TRANSPORTS.has(device.transport) ? device.transport : 'udp';
    const lines: ConfigLine[] = [
      { key: 'transport', value: `transport-${transport}` },
      { key: 'allow', value: (codecs.length ? codecs : ['g722', 'alaw', 'ulaw']).join(',') },
      { key: 'aors', value: name },
      { key: 'auth', value: name },
      ...(transport === 'wss' ? [{ key: 'webrtc', value: 'yes' }] : []),
      ...endpointIdentity(model, owner, extension?.number ?? null, extension?.name ?? null),
    ];
    sections.push(
      { name, inherits: [`${p}-endpoint`], comment: `SIP device: ${commentText(device.name)}`, lines },
      { name, inherits: [`${p}-aor`], lines: [] },
      {
        name,
        inherits: [`${p}-auth`],
        lines: [
          { key: 'username', value: name },
          { key: 'password', value: model.seal(device.secretSealed, 'password') },
        ],
      },
    );
  }

  for (const account of sortBy(model.snapshot.webrtcAccounts, (a) => a.username)) {
    const name = identifier(account.username);
    const user = model.activeUser(account.userId);
    if (!name || !user || endpointNames.has(name)) continue;
    endpointNames.add(name);
    const extension = sortBy(
      model.extensionsOf(account.userId).filter((e) => extensionNumber(e.number)),
      (e) => e.number.padStart(16, '0'),
    )[0];
    sections.push(
      {
        name,
        inherits: [`${p}-endpoint`],
        comment: `WebRTC client of ${model.userName(user)}`,
        lines: [
          { key: 'transport', value: 'transport-wss' },
          { key: 'allow', value: 'opus,g722,alaw,ulaw' },
          { key: 'aors', value: name },
          { key: 'auth', value: name },
          { key: 'webrtc', value: 'yes' },
          ...endpointIdentity(model, account.userId, extension?.number ?? null, null),
        ],
      },
      { name, inherits: [`${p}-aor`], lines: [{ key: 'max_contacts', value: '5' }] },
      {
        name,
        inherits: [`${p}-auth`],
        lines: [
          { key: 'username', value: name },
          { key: 'password', value: model.seal(account.passwordSealed, 'password') },
        ],
      },
    );
  }
  return sections;
}

/** Caller ID inside the PBX, mailbox, language and the outgoing identity of an endpoint. */
function endpointIdentity(model: CompileModel, userId: string | null, extensionNumberText: string | null, extensionName: string | null): ConfigLine[] {
  const user = userId ? model.users.get(userId) : undefined;
  const number = extensionNumber(extensionNumberText);
  const name = displayName(user ? `${user.firstName} ${user.lastName}` : (extensionName ?? ''));
  const lines: ConfigLine[] = [];
  if (number) lines.push({ key: 'callerid', value: name ? `"${name}" <${number}>` : `<${number}>` });
  const mailbox = userId ? model.mailboxOf(userId) : null;
  if (mailbox) lines.push({ key: 'mailboxes', value: mailbox });
  const lang = language(user?.language);
  if (lang) lines.push({ key: 'language', value: lang });
  const identity = model.identityOf(userId);
  if (identity) {
    lines.push({ key: 'set_var', value: `PBXAPI_CID_NUM=${identity.number}` });
    if (identity.name) lines.push({ key: 'set_var', value: `PBXAPI_CID_NAME=${identity.name}` });
  }
  return lines;
}
