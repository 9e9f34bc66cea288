import { registry } from '@/lib/server/registry';
import { securityHarness } from './support';

// Security review, finding 15: an anonymous caller got field validation messages before 401.

const h = securityHarness();

describe('authentication comes before input validation (finding 15)', () => {
  const buyerPaths = Object.entries(registry)
    .filter(([, proc]) => proc.auth === 'buyer')
    .map(([path]) => path);

  it('covers every buyer procedure of the registry', () => {
    expect(buyerPaths.length).toBeGreaterThan(15);
  });

  it.each(buyerPaths)('%s answers an anonymous caller 401, whatever the body', async (path) => {
    for (const body of ['{"orderNo": 12, "id": "abc", "pageSize": "ten"}', '{not json', '[1]']) {
      const res = await h.call(path, body, { raw: true });
      expect(res.body).toEqual({ code: 401, message: 'You are not logged in, or your session has expired. Please log in.', data: null });
    }
  });

  it('still tells a logged-in buyer which field is wrong', async () => {
    const { token } = await h.buyer('13700000015');
    const res = await h.call('/market/api/order/detail', { orderNo: 12 }, { headers: { authorization: token } });
    expect(res.body).toMatchObject({ code: 400, message: expect.stringMatching(/^orderNo: /) });
  });
});
