import { findUnstorableText } from '@/lib/server/text-check';
import { securityHarness } from './support';

// Security review, finding 8: a NUL or a lone surrogate in a tracking field was an HTTP 500 (PostgreSQL refuses them).

const h = securityHarness();

const record = (over: Record<string, unknown> = {}) => ({
  dev_id: 'dev-1',
  proj_id: 5,
  session_id: 'session-nul',
  up_time: Date.now(),
  event_type: 'page_view',
  page_id: 'home',
  page_url: 'http://aurora.localhost/',
  ...over,
});

describe('text the database cannot store (finding 8)', () => {
  it.each([
    ['a NUL in a tracking field', { page_url: 'http://aurora.localhost/\u0000' }, 'records.0.page_url'],
    ['a lone high surrogate', { model: 'phone\ud800' }, 'records.0.model'],
    ['a lone low surrogate', { biz_info: '\udc00x' }, 'records.0.biz_info'],
  ])('refuses %s with 400 naming the field', async (_name, over, field) => {
    const res = await h.call('/log/track', { records: [record(over)] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 400,
      message: `${field}: must not contain the NUL character or broken (lone surrogate) characters`,
      data: null,
    });
  });

  it('takes well-formed text from any language, emoji included', async () => {
    const res = await h.call('/log/track', { records: [record({ model: '华为 Mate 📱', biz_info: '{"a":"ü"}' })] });
    expect(res.body.code).toBe(200);
  });

  it('finds the field in nested values and keys', () => {
    expect(findUnstorableText({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toBe('a.1.c');
    expect(findUnstorableText({ ['k\u0000']: 1 })).toBe('(key)');
    expect(findUnstorableText({ a: '😀', b: ['fine'] })).toBeNull();
  });
});
