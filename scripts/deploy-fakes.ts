/**
 * The outside services of a live deployment, played on this machine for scripts/deploy-check.sh, over HTTPS with a
 * certificate of the check's own throwaway authority (the servers trust it through NODE_EXTRA_CA_CERTS):
 *   - Alibaba Cloud SMS (Dysmsapi SendSms) on 127.0.0.1:$DEPLOY_FAKES_SMS_PORT: checks each request's ACS3 signature
 *     (test/aliyun-sms.ts), the sign name and template, and records the code it was asked to text;
 *   - WeChat Pay API v3 on 127.0.0.1:$DEPLOY_FAKES_WECHATPAY_PORT: the fake of test/wechatpay.ts (merchant signature
 *     checked, answers signed with the platform key), with keys made for this run;
 *   - a control endpoint for the check's buyer, HTTP on the Unix socket $DEPLOY_FAKES_CONTROL_SOCKET (a file, not a
 *     network address: the buyer reaches it from the network namespace it plays its visitor from, issue 29):
 *     GET /sms?phone=… → {code} the last code texted to the phone;
 *     POST /pay?paymentNo=…&host=… → the buyer pays at WeChat's cashier: the fake marks the transaction paid and
 *     POSTs the signed, encrypted notification to https://<host>:<proxy port>/api/pay/notify/wechatpay through the
 *     reverse proxy, answering {status, body, notifyUrl} (notifyUrl: the one the storefront gave with the order).
 * It writes the storefront's provider variables (credentials, endpoints, key files) to $DEPLOY_FAKES_DIR/providers.env
 * once everything listens. Not part of the storefront: nothing under app/ or lib/ imports it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import path from 'node:path';
import { aliyunAnswer, aliyunSignatureProblem } from '../test/aliyun-sms';
import { startFakeHttp } from '../test/fake-http';
import { APPID, MCHID, PLATFORM_KEY_ID, SERIAL, makeWechatKeys, pem, startFakeWechatPay, wechatNotification } from '../test/wechatpay';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const dir = required('DEPLOY_FAKES_DIR');
const tls = { key: readFileSync(required('DEPLOY_FAKES_TLS_KEY'), 'utf8'), cert: readFileSync(required('DEPLOY_FAKES_TLS_CERT'), 'utf8') };
const smsPort = Number(required('DEPLOY_FAKES_SMS_PORT'));
const wechatPayPort = Number(required('DEPLOY_FAKES_WECHATPAY_PORT'));
const controlSocket = required('DEPLOY_FAKES_CONTROL_SOCKET');
/** The reverse proxy that notifications go through (host:port), and the authority its certificates come from. */
const proxy = required('DEPLOY_FAKES_PROXY');
const proxyCaFile = required('DEPLOY_FAKES_PROXY_CA');
/** The first channel host: WECHATPAY_NOTIFY_URL is on it (one URL per deployment, as WeChat Pay's merchant setting). */
const notifyHost = required('DEPLOY_FAKES_NOTIFY_HOST');

const SIGN_NAME = 'Storefront';
const TEMPLATE = 'SMS_465090001';
/** The refund's notice template (issue 32): production refuses to start without one. */
const REFUND_TEMPLATE = 'SMS_465090002';
/** The closing code's template (issue 36): the same parameters as the login's. */
const CLOSE_TEMPLATE = 'SMS_465090004';
const aliyunKeys = { accessKeyId: `LTAI${randomBytes(8).toString('hex')}`, accessKeySecret: randomBytes(24).toString('base64') };
const wechatKeys = makeWechatKeys();
const apiV3Key = randomBytes(16).toString('hex');

/** The last code texted to each phone. */
const texted = new Map<string, string>();

async function main(): Promise<void> {
  await startFakeHttp(
    (request) => {
      const problem = aliyunSignatureProblem(request, aliyunKeys);
      if (problem) return aliyunAnswer('SignatureDoesNotMatch', `Specified signature does not match our calculation: ${problem}`, 400);
      if (request.headers['x-acs-action'] !== 'SendSms' || request.headers['x-acs-version'] !== '2017-05-25')
        return aliyunAnswer('InvalidAction.NotFound', 'unknown action', 404);
      const form = new URLSearchParams(request.body);
      if (form.get('SignName') !== SIGN_NAME) return aliyunAnswer('isv.SMS_SIGNATURE_ILLEGAL', 'no such sign name');
      if (form.get('TemplateCode') === REFUND_TEMPLATE) return aliyunAnswer('OK', 'OK');
      if (form.get('TemplateCode') !== TEMPLATE && form.get('TemplateCode') !== CLOSE_TEMPLATE)
        return aliyunAnswer('isv.SMS_TEMPLATE_ILLEGAL', 'no such template');
      let code: unknown;
      try {
        code = (JSON.parse(form.get('TemplateParam') ?? '') as { code?: unknown }).code;
      } catch {
        return aliyunAnswer('isv.INVALID_JSON_PARAM', 'TemplateParam is not JSON');
      }
      const phone = form.get('PhoneNumbers') ?? '';
      if (typeof code !== 'string' || !/^\d{6}$/.test(code)) return aliyunAnswer('isv.TEMPLATE_PARAMS_ILLEGAL', 'code');
      texted.set(phone, code);
      console.log(`sms: texted a code to ${phone}`);
      return aliyunAnswer('OK', 'OK');
    },
    { port: smsPort, tls },
  );
  const wechatPay = await startFakeWechatPay(wechatKeys, { port: wechatPayPort, tls });

  /** Posts a notification to the channel host through the proxy, checked against the proxy's authority. */
  function notify(host: string, n: { body: string; headers: Record<string, string> }): Promise<{ status: number; body: string }> {
    const [address, port] = [proxy.slice(0, proxy.lastIndexOf(':')), Number(proxy.slice(proxy.lastIndexOf(':') + 1))];
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [{ address, family: 4 }]);
      else callback(null, address, 4);
    };
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host,
          port,
          path: '/api/pay/notify/wechatpay',
          method: 'POST',
          ca: readFileSync(proxyCaFile),
          servername: host,
          lookup,
          headers: {
            ...n.headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(n.body),
            'user-agent': 'Mozilla/4.0',
          },
          timeout: 15_000,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('the notification got no answer in 15 s')));
      req.on('error', reject);
      req.end(n.body);
    });
  }

  const control = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control');
    const reply = (status: number, payload: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET' && url.pathname === '/sms') {
        const code = texted.get(url.searchParams.get('phone') ?? '');
        return code ? reply(200, { code }) : reply(404, { error: 'no code texted to this phone' });
      }
      if (req.method === 'POST' && url.pathname === '/pay') {
        const paymentNo = url.searchParams.get('paymentNo') ?? '';
        const host = url.searchParams.get('host') ?? '';
        if (!wechatPay.transactions.has(paymentNo)) return reply(404, { error: `no WeChat Pay transaction ${paymentNo}` });
        const opened = wechatPay.requests.find((r) => r.method === 'POST' && r.body.includes(`"out_trade_no":"${paymentNo}"`));
        const notifyUrl = opened ? String((JSON.parse(opened.body) as { notify_url?: unknown }).notify_url) : '';
        const transaction = wechatPay.pay(paymentNo);
        notify(host, wechatNotification(wechatKeys, transaction, { apiV3Key }))
          .then((answer) => reply(200, { ...answer, notifyUrl }))
          .catch((error: unknown) => reply(502, { error: `notification to ${host}: ${(error as Error).message}` }));
        return;
      }
      reply(404, { error: 'no such control call' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    control.once('error', reject);
    control.listen(controlSocket, resolve);
  });

  const merchantKeyFile = path.join(dir, 'wechatpay-merchant-key.pem');
  const platformKeyFile = path.join(dir, 'wechatpay-platform-public.pem');
  writeFileSync(merchantKeyFile, pem(wechatKeys.merchant.privateKey), { mode: 0o600 });
  writeFileSync(platformKeyFile, pem(wechatKeys.platform.publicKey));
  const variables: Record<string, string> = {
    SMS_PROVIDER: 'aliyun',
    ALIYUN_SMS_ENDPOINT: `https://127.0.0.1:${smsPort}`,
    ALIYUN_SMS_ACCESS_KEY_ID: aliyunKeys.accessKeyId,
    ALIYUN_SMS_ACCESS_KEY_SECRET: aliyunKeys.accessKeySecret,
    SMS_SIGN_NAME: SIGN_NAME,
    SMS_TEMPLATE_ID: TEMPLATE,
    SMS_ALIYUN_REFUND_TEMPLATE: REFUND_TEMPLATE,
    SMS_ALIYUN_CLOSE_TEMPLATE: CLOSE_TEMPLATE,
    PAYMENT_PROVIDERS: 'wechatpay',
    WECHATPAY_ENDPOINT: wechatPay.url,
    WECHATPAY_MCHID: MCHID,
    WECHATPAY_APPID: APPID,
    WECHATPAY_SERIAL: SERIAL,
    WECHATPAY_PRIVATE_KEY: merchantKeyFile,
    WECHATPAY_APIV3_KEY: apiV3Key,
    WECHATPAY_PLATFORM_PUBLIC_KEY: platformKeyFile,
    WECHATPAY_PLATFORM_PUBLIC_KEY_ID: PLATFORM_KEY_ID,
    WECHATPAY_NOTIFY_URL: `https://${notifyHost}:${proxy.slice(proxy.lastIndexOf(':') + 1)}/api/pay/notify/wechatpay`,
  };
  // Written whole, then renamed: the check reads it as soon as it exists.
  const file = path.join(dir, 'providers.env');
  const partial = `${file}.partial`;
  writeFileSync(
    partial,
    Object.entries(variables)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
    { mode: 0o600 },
  );
  renameSync(partial, file);
  console.log(`fakes: Alibaba Cloud SMS on :${smsPort}, WeChat Pay on :${wechatPayPort} (https), control on ${controlSocket}`);
}

main().catch((error: unknown) => {
  console.error(`deploy-fakes: ${(error as Error).message}`);
  process.exit(1);
});
