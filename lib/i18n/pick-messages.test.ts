import { createTranslator } from 'use-intl/core';
import { pickMessages } from './pick-messages';
import { CATALOGUES } from './translator';
import { LOCALES } from './locale';

it('picks only the namespaces asked for, with their messages', () => {
  const picked = pickMessages('zh-CN', ['pay', 'common']);
  expect(Object.keys(picked).sort()).toEqual(['common', 'pay']);
  expect(picked.pay).toBe(CATALOGUES['zh-CN'].pay);
});

// These were filled in by hand with .replace('{x}') before the client components read them through use-intl.
it.each(LOCALES)('the client messages with arguments format them in %s', (locale) => {
  const t = createTranslator({ locale, messages: pickMessages(locale, ['pay', 'login', 'captcha']) });
  expect(t('pay.limit', { limit: 3 })).toContain('3');
  expect(t('login.resendIn', { seconds: 42 })).toContain('42');
  expect(t('login.codeSent', { phone: '138****0000' })).toContain('138****0000');
  expect(t('login.demoOutbox', { code: '012345' })).toContain('012345');
  expect(t('captcha.question', { a: 4, b: 7 })).toMatch(/4\D+7/);
});

it('keeps the English wording the pages showed', () => {
  const t = createTranslator({ locale: 'en', messages: pickMessages('en', ['pay', 'login', 'captcha']) });
  expect(t('pay.limit', { limit: 3 })).toBe('Up to 3 per buyer');
  expect(t('login.resendIn', { seconds: 42 })).toBe('Resend in 42 s');
  expect(t('captcha.question', { a: 4, b: 7 })).toBe('What is 4 plus 7?');
});
