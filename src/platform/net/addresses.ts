import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * What an IP address is, for deciding whether the server may connect to it on a tenant's behalf
 * (webhook URLs, PBX hosts). Everything but `public` stays inside a network, or is no host at all.
 */
export type AddressKind = 'loopback' | 'unspecified' | 'link_local' | 'multicast' | 'reserved' | 'private' | 'public';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

const RANGES: ReadonlyArray<readonly [Exclude<AddressKind, 'public'>, string, number]> = [
  ['unspecified', '0.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['private', '100.64.0.0', 10], // carrier-grade NAT
  ['loopback', '127.0.0.0', 8],
  ['link_local', '169.254.0.0', 16], // cloud metadata lives here
  ['private', '172.16.0.0', 12],
  ['private', '192.0.0.0', 24], // IETF protocol assignments
  ['private', '192.168.0.0', 16],
  ['private', '198.18.0.0', 15], // benchmarking networks, used by labs
  ['multicast', '224.0.0.0', 4],
  ['reserved', '240.0.0.0', 4],
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['reserved', '::', 96], // IPv4-compatible, deprecated
  ['private', 'fc00::', 7],
  ['link_local', 'fe80::', 10],
  ['multicast', 'ff00::', 8],
];

/** One list per kind, checked in this order (so `::` is unspecified before it is reserved). */
const KINDS = [...new Set(RANGES.map(([kind]) => kind))].map((kind) => {
  const list = new BlockList();
  for (const [rangeKind, network, prefix] of RANGES) if (rangeKind === kind) list.addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
  return [kind, list] as const;
});

/**
 * The address in its canonical form, or null when the text is no IP address. Brackets are
 * dropped, and an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, which a URL spells
 * `::ffff:7f00:1`) is the IPv4 address it reaches.
 */
export function ipOf(text: string): ResolvedAddress | null {
  const bare = text.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return { address: bare, family: 4 };
  if (family !== 6) return null;
  let canonical: string;
  try {
    canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return { address: canonical, family: 6 };
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 4 };
}

/** The kind of an IP address (text that is no address counts as `reserved`: never to be reached). */
export function addressKind(text: string): AddressKind {
  const ip = ipOf(text);
  if (!ip) return 'reserved';
  const type = ip.family === 4 ? 'ipv4' : 'ipv6';
  return KINDS.find(([, list]) => list.check(ip.address, type))?.[0] ?? 'public';
}

/** Loopback, private, link-local, CGNAT, multicast, unspecified or reserved: anything but a public address. */
export function isPrivateAddress(address: string): boolean {
  return addressKind(address) !== 'public';
}

/** Every address a host name resolves to (the system resolver, as sockets use it). */
export async function resolveHost(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await lookup(hostname, { all: true });
  return answers.map(({ address, family }) => ipOf(address) ?? { address, family: family === 6 ? 6 : 4 });
}
