import { IDENTITY_CONSENT, IDENTITY_CONSENT_VERSION, textFingerprint } from './consent';

// Issue 33: the consent's version is its text's fingerprint, so an edited text (either language) is a new version the
// verify call asks the buyer to accept again.

describe('the identity consent', () => {
  it('is versioned by the fingerprint of both languages', () => {
    expect(IDENTITY_CONSENT_VERSION).toMatch(/^[0-9a-f]{12}$/);
    expect(IDENTITY_CONSENT_VERSION).toBe(textFingerprint(JSON.stringify(IDENTITY_CONSENT)));
    const edited = { ...IDENTITY_CONSENT, 'zh-CN': { ...IDENTITY_CONSENT['zh-CN'], title: '实名认证授权说明（修订）' } };
    expect(textFingerprint(JSON.stringify(edited))).not.toBe(IDENTITY_CONSENT_VERSION);
  });

  it('says in both languages who sees the name and number: the vendors', () => {
    expect(IDENTITY_CONSENT.en.paragraphs.join(' ')).toMatch(/Tencent Cloud or Alibaba Cloud/);
    expect(IDENTITY_CONSENT['zh-CN'].paragraphs.join('')).toMatch(/腾讯云或阿里云/);
    expect(IDENTITY_CONSENT['zh-CN'].paragraphs).toHaveLength(IDENTITY_CONSENT.en.paragraphs.length);
  });
});
