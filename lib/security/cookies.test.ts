import fc from 'fast-check';
import { cookieValue, cookieValues, decodeCookieValue } from './cookies';
import { deviceIdFrom } from './device';
import { sessionCookieValue } from '../auth/session-claims';
import { readWechatOpenid } from '../payment/wechat-oauth';

// The one Cookie header parser (issue 30). The header is the client's to write: every reader of it goes through here.

describe('a Cookie header', () => {
  it('gives every value of a name, in the order sent, and the last one as the value', () => {
    const header = 'a=1; storefront_device=first;other=x=y;  storefront_device = second ;broken; =nameless';
    expect(cookieValues(header, 'storefront_device')).toEqual(['first', 'second']);
    expect(cookieValue(header, 'storefront_device')).toBe('second');
    expect(cookieValue(header, 'other')).toBe('x=y');
    expect(cookieValue(header, 'broken')).toBeUndefined();
    expect(cookieValue(header, '')).toBeUndefined();
    expect(cookieValues(null, 'a')).toEqual([]);
    expect(cookieValue(undefined, 'a')).toBeUndefined();
  });

  it('decodes a value, and answers null for a malformed escape instead of throwing', () => {
    expect(decodeCookieValue('%2Fpay%2F12')).toBe('/pay/12');
    expect(decodeCookieValue('%E0%A4%A')).toBeNull();
    expect(decodeCookieValue('100%')).toBeNull();
  });

  it('never throws, whatever the client writes, in the parser or in any reader of it', () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom(';', '=', '%', '%E0%A4%A', ' ', 'next-auth.session-token', 'storefront_device'));
    const header = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(header, fc.string(), (text, name) => {
        for (const value of cookieValues(text, name)) decodeCookieValue(value);
        cookieValue(text, name);
        sessionCookieValue(text);
        deviceIdFrom(text);
        readWechatOpenid(text, { secret: 'test-secret', appid: 'wx-app', channelKey: 'AURORA', https: false, now: new Date(0) });
      }),
    );
  });

  it('hands a session cookie on decoded, and one that does not decode as sent (it then fails to decrypt)', () => {
    expect(sessionCookieValue('next-auth.session-token=a%2Eb')).toBe('a.b');
    expect(sessionCookieValue('next-auth.session-token=a%E0%A4%A')).toBe('a%E0%A4%A');
    expect(sessionCookieValue('__Secure-next-auth.session-token=secure; next-auth.session-token=plain')).toBe('secure');
  });
});
