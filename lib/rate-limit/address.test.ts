import { addressLimits } from './address';

// Issue 29: the SMS and captcha limits count a client as its address and as its network (lib/security/address.ts).

describe('addressLimits', () => {
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
