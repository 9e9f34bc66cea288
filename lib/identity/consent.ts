import type { Locale } from '../i18n/locale';

/**
 * The consent a buyer gives before their real name is checked (issue 33; docs/security.md, "Real-name identities"): what
 * is kept, why, for how long, and who sees it. The verification page shows it in the buyer's language; the verify call
 * takes `consentVersion` and refuses any other than IDENTITY_CONSENT_VERSION, so an edited text is agreed to again, and
 * the version accepted is kept in agreement_acceptances ('identityConsent'). No imports beyond types and no node
 * modules: the page may ship it to the browser.
 */
export const IDENTITY_CONSENT: Readonly<Record<Locale, { title: string; paragraphs: readonly string[] }>> = {
  en: {
    title: 'Consent to verify your real name',
    paragraphs: [
      'Why: this store sells digital collectibles in mainland China, where the industry’s rules ask buyers to verify their real name, protect minors by age, and allow one account per person. This store’s rules say which actions need it.',
      'What is checked: your legal name and resident ID card number are sent once, over an encrypted connection, to our identity vendor (Tencent Cloud or Alibaba Cloud), which answers only whether they belong together. The vendor handles them under its own privacy terms.',
      'What is kept: your name and ID number, encrypted (AES-256) so that nobody at the store can read them; a keyed fingerprint of the number, so that one identity verifies one account; your birth date, for the age rules; and masked forms (张*, 1101**********1234), the only ones ever shown to you or to the store’s staff. Nothing of them goes into logs, analytics or error messages.',
      'How long: while your account exists, and after it is closed for as long as its trade records are kept (at least three years from your last trade, as the E-Commerce Law asks).',
      'You may decline: you can still browse, but the actions this store’s rules guard will ask you to verify first.',
    ],
  },
  'zh-CN': {
    title: '实名认证授权说明',
    paragraphs: [
      '为什么：本店在中国大陆销售数字藏品，行业规范要求购买者实名认证、按年龄保护未成年人，并且一人一个账号。本店规则会说明哪些操作需要实名。',
      '核验什么：你的真实姓名与居民身份证号会经加密连接发送一次给我们的实名核验服务商（腾讯云或阿里云），服务商只回答二者是否一致，并按其隐私条款处理。',
      '保存什么：以 256 位密钥加密保存的姓名与身份证号，本店任何人都无法直接读取；证件号的密钥指纹，用于一个身份只认证一个账号；出生日期，用于年龄规则；以及脱敏形式（张*、1101**********1234），这是向你本人和本店工作人员展示的唯一形式。这些信息不会写入日志、统计或错误提示。',
      '保存多久：账号存续期间；账号注销后，与其交易记录保存期限相同（依《电子商务法》，自最后一笔交易起至少三年）。',
      '你可以不同意：仍可浏览本店，但本店规则要求实名的操作会先请你完成认证。',
    ],
  },
};

/**
 * A short fingerprint of a text (FNV-1a, 64 bits, over its UTF-16 code units, as 12 hex digits): not a secret and not a
 * signature, only "is this the text the buyer read". Pure, so the browser computes the same.
 */
export function textFingerprint(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0').slice(0, 12);
}

/** The consent's version: the fingerprint of both languages' texts, so editing either is a new version. */
export const IDENTITY_CONSENT_VERSION: string = textFingerprint(JSON.stringify(IDENTITY_CONSENT));
