import { addressLimits, networkOf, parseAddress } from './address';

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

  it('counts an address and its network, or the address alone when it is its own network', () => {
    const allowance = { perAddress: 5, perNetwork: 9 };
    expect(addressLimits('sms:minute', '2001:0db8:1:2::7', 60_000, allowance, 32)).toEqual([
      { bucket: 'sms:minute:ip:2001:db8:1:2::7', max: 5, windowMs: 60_000 },
      { bucket: 'sms:minute:net:2001:db8:1:2::/64', max: 9, windowMs: 60_000 },
    ]);
    expect(addressLimits('sms:minute', '::ffff:10.1.2.3', 60_000, allowance, 32)).toEqual([
      { bucket: 'sms:minute:ip:10.1.2.3', max: 5, windowMs: 60_000 },
    ]);
    expect(addressLimits('sms:minute', '10.1.2.3', 60_000, allowance, 24)).toEqual([
      { bucket: 'sms:minute:ip:10.1.2.3', max: 5, windowMs: 60_000 },
      { bucket: 'sms:minute:net:10.1.2.0/24', max: 9, windowMs: 60_000 },
    ]);
    // Without the entry server the address is 'unknown': still one bucket, as before.
    expect(addressLimits('sms:minute', 'unknown', 60_000, allowance, 24)).toEqual([
      { bucket: 'sms:minute:ip:unknown', max: 5, windowMs: 60_000 },
    ]);
  });
});
