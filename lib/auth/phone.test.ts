import { isMobilePhone, normalizePhone, phoneProblem } from './phone';
import { maskPhone } from './mask';
import { AFTER_LOGIN_DEFAULT, safeRedirect } from './redirect';

describe('mainland-China mobile numbers (spec §5)', () => {
  it.each(['13800138000', '19912345678', '15000000000', '138 0013 8000', '138-0013-8000'])('accepts %s', (phone) => {
    expect(isMobilePhone(phone)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['1380013800a', 'notDigits'],
    ['+8613800138000', 'notDigits'],
    ['1380013800', 'tooShort'],
    ['1', 'tooShort'],
    ['138001380001', 'tooLong'],
    ['12800138000', 'notMobile'],
    ['10800138000', 'notMobile'],
    ['23800138000', 'notMobile'],
    // A prefix that can never become a mobile number is named at once, before its length.
    ['12', 'notMobile'],
    ['2', 'notMobile'],
    ['13', 'tooShort'],
    ['０１３８００１３８０', 'notDigits'],
  ])('refuses %j as %s', (phone, problem) => {
    expect(phoneProblem(phone)).toBe(problem);
  });

  it('drops spaces and dashes only', () => {
    expect(normalizePhone(' 138 0013-8000 ')).toBe('13800138000');
  });

  it('masks as first 3, ****, last 4 (spec §3)', () => {
    expect(maskPhone('13800138000')).toBe('138****8000');
  });
});

describe('where login sends the buyer back to', () => {
  it.each([
    ['/mine/box', '/mine/box'],
    ['/pay/3?from=share', '/pay/3?from=share'],
    ['/goods/detail/4#odds', '/goods/detail/4#odds'],
  ])('keeps the site path %s', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it.each([
    undefined,
    '',
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    '/login',
    '/login?redirect=/mine',
    'mine',
    '/\u0000x',
  ])('refuses %j and goes to /mine', (value) => {
    expect(safeRedirect(value)).toBe(AFTER_LOGIN_DEFAULT);
  });

  it('takes the first of repeated queries', () => {
    expect(safeRedirect(['/mine/records', '/x'])).toBe('/mine/records');
  });
});
