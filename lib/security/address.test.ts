import { clientGroup, networkOf, parseAddress } from './address';

// Issue 29: the limits count one client once, whatever address of its network it writes from and however it is spelt.

describe('client addresses', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:1.2.3.4', '1.2.3.4'],
    ['0:0:0:0:0:ffff:102:304', '1.2.3.4'],
    ['[::ffff:1.2.3.4]', '1.2.3.4'],
    ['1.2.3.4:5678', '1.2.3.4'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::1', '::1'],
    ['::', '::'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
  ])('spells %s as %s', (raw, canonical) => {
    expect(parseAddress(raw)?.address).toBe(canonical);
  });

  it.each(['unknown', '', '1.2.3', '2001:db8::1::2', '999.1.1.1'])('is not an address: %j', (raw) => {
    expect(parseAddress(raw)).toBeNull();
  });

  it('puts an IPv6 address in its /64 and an IPv4 one in the configured prefix', () => {
    expect(networkOf(parseAddress('2001:db8:1:2:aaaa:bbbb:cccc:dddd')!, 32)).toBe('2001:db8:1:2::/64');
    expect(networkOf(parseAddress('2001:db8:1:2::')!, 32)).toBe('2001:db8:1:2::/64');
    expect(networkOf(parseAddress('10.1.2.3')!, 24)).toBe('10.1.2.0/24');
    expect(networkOf(parseAddress('10.1.2.3')!, 20)).toBe('10.1.0.0/20');
    expect(networkOf(parseAddress('::ffff:10.1.2.3')!, 24)).toBe('10.1.2.0/24');
  });
});

describe('clientGroup (the buy lane counts a client by it)', () => {
  it('counts every address of one IPv6 /64 as one client, however it is written', () => {
    const group = '2001:db8:aa:1::/64';
    for (const address of [
      '2001:db8:aa:1::1',
      '2001:db8:aa:1::2',
      '2001:db8:aa:1:ffff:ffff:ffff:ffff',
      '2001:0db8:00aa:0001:0:0:0:9',
      '2001:DB8:AA:1::5',
    ]) {
      expect(clientGroup(address)).toBe(group);
    }
    expect(clientGroup('2001:db8:aa:2::1')).toBe('2001:db8:aa:2::/64');
    expect(clientGroup('::1')).toBe('::/64');
    expect(clientGroup('fe80::1%eth0')).toBe('fe80::/64');
    // IPv4 on an IPv6 socket is IPv4.
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('keeps an IPv4 address exact by default, and groups it by a prefix when asked', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('203.0.113.7', 24)).toBe('203.0.113.0/24');
    expect(clientGroup('203.0.113.200', 24)).toBe('203.0.113.0/24');
    expect(clientGroup('203.0.113.7', 16)).toBe('203.0.0.0/16');
    expect(clientGroup('203.0.113.7', 30)).toBe('203.0.113.4/30');
    expect(clientGroup('203.0.113.7', 0)).toBe('0.0.0.0/0');
  });

  it('leaves anything that is not an address as its own group', () => {
    expect(clientGroup('unknown')).toBe('unknown');
    expect(clientGroup('')).toBe('');
  });
});
