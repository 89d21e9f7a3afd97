import { BlockList } from 'node:net';
import type { HostPattern } from '../../config.js';
import { ipOf } from './addresses.js';

/**
 * An operator's list of where the server may connect on a tenant's behalf: networks (CIDRs or
 * single addresses), host names, and `*.name` for every sub-domain of a name (not the name itself).
 */
export class HostAllowList {
  private readonly networks = new BlockList();
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  /** The list has networks: a host name not listed by name may still pass on the addresses it resolves to. */
  readonly hasNetworks: boolean;

  constructor(patterns: readonly HostPattern[]) {
    for (const pattern of patterns) {
      if (pattern.kind === 'network') this.networks.addSubnet(pattern.address, pattern.prefix, pattern.family);
      else if (pattern.kind === 'name') this.names.add(pattern.name);
      else this.suffixes.push(pattern.suffix);
    }
    this.hasNetworks = patterns.some((pattern) => pattern.kind === 'network');
  }

  /** Whether a network of the list holds this address. */
  holdsAddress(address: string): boolean {
    const ip = ipOf(address);
    return !!ip && this.networks.check(ip.address, ip.family === 4 ? 'ipv4' : 'ipv6');
  }

  /** Whether the list names this host, exactly or as a sub-domain of a `*.` entry (case and a final dot ignored). */
  namesHost(host: string): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.names.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix));
  }
}
