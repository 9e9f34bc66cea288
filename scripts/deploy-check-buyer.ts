/**
 * One buyer on a phone, end to end through the reverse proxy, for scripts/deploy-check.sh: the login (captcha question
 * with its proof of work, the code Alibaba Cloud SMS was asked to text, read back from the fake carrier of
 * scripts/deploy-fakes.ts, authCodeLoginV2 for the token), a buy of one copy of a sale on sale, WeChat Pay H5 opened by
 * pay/create, the buyer paying at the fake WeChat Pay (which posts its notification through the proxy), then the order
 * read back paid and the copy in the buyer's collection. Every storefront call goes over HTTPS to the proxy, checked
 * against the proxy's certificate authority, with the channel host in the URL and the TLS name (as `curl --resolve`).
 *
 *   ip netns exec <namespace> env DEPLOY_CHECK_HOST=aurora.localhost DEPLOY_CHECK_PORT=8443 \
 *     DEPLOY_CHECK_ADDRESS=10.231.7.1 DEPLOY_CHECK_FROM=10.231.7.2 DEPLOY_CHECK_CA=/tmp/.../root.crt \
 *     DEPLOY_CHECK_PHONE=13700000001 DEPLOY_CHECK_FORGED_IP=203.0.113.7 \
 *     DEPLOY_CHECK_FAKES=/tmp/.../fakes-control.sock \
 *     npx tsx scripts/deploy-check-buyer.ts
 *
 * The buyer is a visitor from outside (issue 29): the check runs it in a network namespace of its own, where the proxy
 * is DEPLOY_CHECK_ADDRESS (the host's end of the namespace's veth pair), or else on a loopback address the servers do
 * not trust (DEPLOY_CHECK_FROM=127.0.0.2, the proxy at 127.0.0.1). Every connection to the proxy leaves from
 * DEPLOY_CHECK_FROM. The fakes' control endpoint is a Unix socket (DEPLOY_CHECK_FAKES), reached the same from either.
 * DEPLOY_CHECK_FORGED_IP goes in X-Forwarded-For of the SMS code request: the proxy must replace it (the script then
 * reads the address the storefront stored with the code). Prints one line per step; exits 1 with the failing step.
 */
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { solvePow, type PowChallenge } from '../lib/client/proof-of-work';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const host = required('DEPLOY_CHECK_HOST');
const port = Number(required('DEPLOY_CHECK_PORT'));
const address = required('DEPLOY_CHECK_ADDRESS');
const from = required('DEPLOY_CHECK_FROM');
const ca = readFileSync(required('DEPLOY_CHECK_CA'));
const phone = required('DEPLOY_CHECK_PHONE');
const forgedIp = process.env.DEPLOY_CHECK_FORGED_IP;
const controlSocket = required('DEPLOY_CHECK_FAKES');

/** A phone browser (not WeChat's): WeChat Pay answers with its H5 cashier. */
const PHONE_BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Every name resolves to the proxy's address (Node resolves no *.localhost name by itself). */
const lookup: LookupFunction = (_hostname, options, callback) => {
  const family = address.includes(':') ? 6 : 4;
  if (options.all) callback(null, [{ address, family }]);
  else callback(null, address, family);
};

type Envelope = { code: number; message: string; data: unknown };
type Answer = { status: number; body: Envelope; authorization: string | undefined };

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host,
        port,
        path: `/api${path}`,
        method: 'POST',
        ca,
        servername: host,
        lookup,
        localAddress: from,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'user-agent': PHONE_BROWSER,
          ...headers,
        },
        timeout: 15_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            const authorization = res.headers.authorization;
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope, authorization });
          } catch {
            reject(new Error(`${path}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 200)}`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer in 15 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A call to the fakes' control endpoint (scripts/deploy-fakes.ts), over its Unix socket: its status and JSON. */
function control<T>(method: 'GET' | 'POST', path: string): Promise<{ ok: boolean; body: T }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath: controlSocket, path, method, timeout: 30_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          const status = res.statusCode ?? 0;
          resolve({ ok: status >= 200 && status < 300, body: JSON.parse(text) as T });
        } catch {
          reject(new Error(`the fakes' ${path}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`the fakes' ${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** The call's data when it answered HTTP 200 with code 200; throws with the answer otherwise. */
async function call<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ data: T; answer: Answer }> {
  const answer = await post(path, body, headers);
  if (answer.status !== 200 || answer.body.code !== 200)
    throw new Error(`${path} answered HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return { data: answer.body.data as T, answer };
}

async function main(): Promise<void> {
  const challenge = (
    await call<{ id: string; question: { a: number; b: number }; pow: PowChallenge }>('/auth/api/captcha/challenge', { kind: 'text' })
  ).data;
  const pow = await solvePow(challenge.pow);
  if (pow === null) throw new Error('captcha: the proof of work has no solution');
  const { ticket } = (
    await call<{ ticket: string }>('/auth/api/captcha/verify', {
      id: challenge.id,
      pow,
      answer: challenge.question.a + challenge.question.b,
    })
  ).data;
  const smsHeaders: Record<string, string> = { behaviorVerify: ticket };
  if (forgedIp) smsHeaders['x-forwarded-for'] = forgedIp;
  const sent = (await call<{ demoCode?: string }>('/auth/api/auth/getAuthCode', { phone }, smsHeaders)).data;
  if (sent.demoCode) throw new Error('getAuthCode: answered the code itself (a demo outbox in production?)');
  const texted = await control<{ code?: string; error?: string }>('GET', `/sms?phone=${phone}`);
  const code = texted.body.code;
  if (!texted.ok || !code) throw new Error(`getAuthCode: Alibaba Cloud SMS was not asked to text ${phone} (${texted.body.error})`);
  const login = await call<unknown>('/auth/api/auth/authCodeLoginV2', { phone, code });
  const token = login.answer.authorization;
  if (!token) throw new Error('authCodeLoginV2: no token in the authorization header');
  console.log(`logged in as ${phone} with the code texted through Alibaba Cloud SMS`);

  const sales = (
    await call<{ records: { id: string; statusSell: number; price: number; commodity: { name: string } }[] }>(
      '/market/api/channel/querySaleRecord',
      {
        pageCount: 1,
        pageSize: 20,
      },
    )
  ).data.records;
  const sale = sales.find((s) => s.statusSell === 1);
  if (!sale) throw new Error('querySaleRecord: no sale on sale');
  const order = (
    await call<{ orderNo: string; statusTrade: number; pricePay: number }>(
      '/market/api/order/create',
      { saleId: sale.id, quantity: 1, idempotencyKey: `deploy-check-${Date.now()}` },
      { authorization: token },
    )
  ).data;
  const detail = (
    await call<{ orderNo: string; statusTrade: number }>('/market/api/order/detail', { orderNo: order.orderNo }, { authorization: token })
  ).data;
  if (detail.orderNo !== order.orderNo || detail.statusTrade !== 0)
    throw new Error(`order/detail: expected unpaid order ${order.orderNo}, got ${JSON.stringify(detail)}`);
  console.log(`bought "${sale.commodity.name}" (sale ${sale.id}): order ${order.orderNo}, ${order.pricePay} fen to pay`);

  const payment = (
    await call<{ provider: string; payUrl: string; paymentNo: string }>(
      '/market/api/pay/create',
      { orderNo: order.orderNo },
      { authorization: token },
    )
  ).data;
  const payUrl = new URL(payment.payUrl);
  const returnUrl = `https://${host}:${port}/pay/success?orderNo=${order.orderNo}`;
  if (payment.provider !== 'wechatpay' || !payUrl.href.startsWith('https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?'))
    throw new Error(`pay/create: expected WeChat Pay's H5 cashier, got ${payment.provider} ${payment.payUrl}`);
  if (payUrl.searchParams.get('redirect_url') !== returnUrl)
    throw new Error(`pay/create: the cashier returns to ${payUrl.searchParams.get('redirect_url')}, not ${returnUrl}`);
  console.log(`WeChat Pay H5 opened: payment ${payment.paymentNo}`);

  const paid = await control<{ status?: number; body?: string; notifyUrl?: string; error?: string }>(
    'POST',
    `/pay?paymentNo=${encodeURIComponent(payment.paymentNo)}&host=${encodeURIComponent(host)}`,
  );
  const delivered = paid.body;
  if (!paid.ok) throw new Error(`WeChat Pay: ${delivered.error}`);
  console.log(`paid at WeChat Pay, which notifies ${delivered.notifyUrl} (as the storefront asked)`);
  if (delivered.status !== 204)
    throw new Error(`notify/wechatpay on ${host} answered HTTP ${delivered.status} ${delivered.body?.slice(0, 200)} (expected 204)`);
  const paidOrder = (
    await call<{ orderNo: string; statusTrade: number }>('/market/api/order/detail', { orderNo: order.orderNo }, { authorization: token })
  ).data;
  if (paidOrder.statusTrade !== 1) throw new Error(`order/detail: order ${order.orderNo} is not paid after the notification`);
  const collection = (
    await call<{ records: { commodity: { name: string } }[] }>(
      '/market/api/channel/queryTreasureSku',
      { pageCount: 1, pageSize: 20 },
      { authorization: token },
    )
  ).data.records;
  if (!collection.some((h) => h.commodity.name === sale.commodity.name))
    throw new Error(`queryTreasureSku: "${sale.commodity.name}" is not in the buyer's collection after paying`);
  console.log(
    `paid through WeChat Pay (signed, encrypted notification via https://${host}:${port}: 204), "${sale.commodity.name}" in the collection`,
  );
}

main().catch((error: unknown) => {
  console.error(`buyer on ${host}: ${(error as Error).message}`);
  process.exit(1);
});
