import { describe, expect, it } from 'vitest';
import { addressKind, ipOf, isPrivateAddress, resolveHost } from './addresses.js';

describe('address classification', () => {
  it('reads addresses in any spelling, and an IPv4-mapped IPv6 address as the IPv4 address it reaches', () => {
    expect(ipOf('10.1.2.3')).toEqual({ address: '10.1.2.3', family: 4 });
    expect(ipOf('[2001:DB8:0:0::1]')).toEqual({ address: '2001:db8::1', family: 6 });
    expect(ipOf('::ffff:127.0.0.1')).toEqual({ address: '127.0.0.1', family: 4 });
    expect(ipOf('::ffff:7f00:1')).toEqual({ address: '127.0.0.1', family: 4 });
    expect(ipOf('[::ffff:a9fe:a9fe]')).toEqual({ address: '169.254.169.254', family: 4 });
    for (const text of ['pbx.example.net', '10.1.2', '', 'fe80::1%eth0']) expect(ipOf(text), text).toBeNull();
  });

  it('tells loopback, unspecified, link-local, multicast, reserved and private ranges from public addresses', () => {
    const kinds: Record<string, string[]> = {
      loopback: ['127.0.0.1', '127.255.0.9', '::1', '::ffff:7f00:1'],
      unspecified: ['0.0.0.0', '0.1.2.3', '::'],
      link_local: ['169.254.169.254', 'fe80::1'],
      multicast: ['224.0.0.1', 'ff02::1'],
      reserved: ['240.0.0.1', '255.255.255.255', '::7f00:1', 'not an address'],
      private: ['10.1.2.3', '172.16.0.5', '192.168.1.1', '100.64.0.1', '198.18.0.1', 'fd00::1'],
      public: ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:808:808'],
    };
    for (const [kind, addresses] of Object.entries(kinds)) for (const address of addresses) expect(addressKind(address), address).toBe(kind);
    expect(isPrivateAddress('::ffff:7f00:1')).toBe(true);
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
  });

  it('resolves a name to every address it has', async () => {
    const addresses = await resolveHost('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((a) => addressKind(a.address) === 'loopback')).toBe(true);
  });
});
