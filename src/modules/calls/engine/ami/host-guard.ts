import type { Config } from '../../../../config.js';
import { addressKind, ipOf, resolveHost, type AddressKind, type ResolvedAddress } from '../../../../platform/net/addresses.js';
import { HostAllowList } from '../../../../platform/net/host-allow-list.js';
import { AmiClient, AmiError } from './client.js';

export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The AMI host is not one this server may connect to. `detail` is for the operator's logs (it may name a resolved address). */
export class AmiHostRefused extends AmiError {
  constructor(
    message: string,
    readonly detail: string = message,
  ) {
    super('not_admitted', message);
  }
}

/** Addresses no PBX answers on, whatever the allow-list says (link-local holds cloud metadata services). */
const NEVER_ADMITTED: Partial<Record<AddressKind, string>> = {
  unspecified: 'an unspecified',
  link_local: 'a link-local',
  multicast: 'a multicast',
  reserved: 'a reserved',
};

const notListed = (host: string) => `The host ${host} is not in this server's allow-list of AMI hosts (AMI_ALLOWED_HOSTS).`;

/**
 * Where a tenant's AMI settings may point, so that they cannot be used to probe the server's
 * networks. A host passes when it is an address in a network of AMI_ALLOWED_HOSTS, a name the list
 * names (`pbx.example.net`, `*.example.net`), or, when the list has networks, a name whose every
 * address lies in them. Loopback passes only with AMI_ALLOW_LOOPBACK (never by a network entry);
 * unspecified, link-local, multicast and reserved addresses never do.
 */
export class AmiHostGuard {
  private readonly allowList: HostAllowList;

  constructor(
    private readonly config: Pick<Config, 'amiAllowedHosts' | 'amiAllowLoopback'>,
    private readonly resolve: HostResolver = resolveHost,
  ) {
    this.allowList = new HostAllowList(config.amiAllowedHosts);
  }

  /**
   * Before settings are saved or tested, without connecting. A listed name is not resolved here
   * (its addresses are checked on connecting); an unlisted one must resolve into the list's
   * networks, and whether it resolves at all is not told apart from a refusal.
   */
  async check(host: string): Promise<void> {
    await this.admit(host, 'check');
  }

  /** On connecting: the address to connect to, checked now, since DNS may have changed since the settings were saved. */
  async target(host: string): Promise<ResolvedAddress> {
    const [first] = await this.admit(host, 'connect');
    return first;
  }

  private async admit(host: string, when: 'check' | 'connect'): Promise<ResolvedAddress[]> {
    const literal = ipOf(host);
    if (literal) {
      this.assertAddress(host, literal.address, false);
      return [literal];
    }
    const name = host.toLowerCase().replace(/\.$/, '');
    const listed = this.allowList.namesHost(name) || (this.config.amiAllowLoopback && name === 'localhost');
    if (!listed && !this.allowList.hasNetworks) throw new AmiHostRefused(notListed(host));
    if (listed && when === 'check') return [];
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(name);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      if (when === 'check') throw new AmiHostRefused(notListed(host), `${host} could not be resolved`);
      throw new AmiError('unreachable', `The PBX at ${host} is unreachable: its name could not be resolved.`);
    }
    // An unlisted name's refusal never says what it resolves to: that would map internal DNS for the caller.
    for (const { address } of addresses) this.assertAddress(host, address, listed, listed ? undefined : notListed(host));
    return addresses;
  }

  /** `listedName`: the host is a name the list names, so its addresses need not lie in the list's networks. */
  private assertAddress(host: string, address: string, listedName: boolean, message?: string): void {
    const kind = addressKind(address);
    const what = listedName ? `The host ${host} resolves to` : `The host ${host} is`;
    const detail = `${host} (${address}) is ${kind}`;
    if (kind === 'loopback') {
      if (this.config.amiAllowLoopback) return;
      throw new AmiHostRefused(message ?? `${what} a loopback address, which this server does not admit as an AMI host.`, detail);
    }
    const never = NEVER_ADMITTED[kind];
    if (never) throw new AmiHostRefused(message ?? `${what} ${never} address, which is never admitted as an AMI host.`, detail);
    if (listedName || this.allowList.holdsAddress(address)) return;
    throw new AmiHostRefused(message ?? notListed(host), `${detail}, outside AMI_ALLOWED_HOSTS`);
  }
}

export interface AmiEndpoint {
  host: string;
  port: number;
}

/** Opens an AMI connection to the address the guard admits for the host, never to a fresh resolution of the name. */
export async function connectAmi(
  config: Pick<Config, 'amiConnectTimeoutMs' | 'amiActionTimeoutMs' | 'amiAllowedHosts' | 'amiAllowLoopback'>,
  endpoint: AmiEndpoint,
  options: { trace?: boolean; guard?: AmiHostGuard } = {},
): Promise<AmiClient> {
  const target = await (options.guard ?? new AmiHostGuard(config)).target(endpoint.host);
  return AmiClient.connect({
    host: endpoint.host,
    address: target.address,
    port: endpoint.port,
    connectTimeoutMs: config.amiConnectTimeoutMs,
    actionTimeoutMs: config.amiActionTimeoutMs,
    trace: options.trace,
  });
}
