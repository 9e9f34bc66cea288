import { addressGroup } from './address-group';

// Per-client limits count a client by its group (issue 29): an IPv6 /64 is one subscriber, an IPv4 address is itself
// unless the deployment groups by a prefix.

describe('addressGroup', () => {
  it('counts every address of one IPv6 /64 as one client, however it is written', () => {
    const group = '2001:db8:aa:1::/64';
    for (const address of [
      '2001:db8:aa:1::1',
      '2001:db8:aa:1::2',
      '2001:db8:aa:1:ffff:ffff:ffff:ffff',
      '2001:0db8:00aa:0001:0:0:0:9',
      '2001:DB8:AA:1::5',
    ]) {
      expect(addressGroup(address)).toBe(group);
    }
    expect(addressGroup('2001:db8:aa:2::1')).toBe('2001:db8:aa:2::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    // IPv4 on an IPv6 socket is IPv4.
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('keeps an IPv4 address exact by default, and groups it by a prefix when asked', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('203.0.113.7', 24)).toBe('203.0.113.0/24');
    expect(addressGroup('203.0.113.200', 24)).toBe('203.0.113.0/24');
    expect(addressGroup('203.0.113.7', 16)).toBe('203.0.0.0/16');
    expect(addressGroup('203.0.113.7', 30)).toBe('203.0.113.4/30');
    expect(addressGroup('203.0.113.7', 0)).toBe('0.0.0.0/0');
  });

  it('leaves anything that is not an address as its own group', () => {
    expect(addressGroup('unknown')).toBe('unknown');
    expect(addressGroup('')).toBe('');
  });
});
