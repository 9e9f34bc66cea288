import crypto from 'node:crypto';
import type { FakeAnswer, FakeRequest } from './fake-http';

/**
 * Tencent Cloud SMS (SendSms 2021-01-11) as a fake carrier sees it: the TC3-HMAC-SHA256 signature of a request checked
 * the way Tencent Cloud's "Signature v3" describes it, computed here on its own (not with the provider's signer), and
 * the carrier's answers. Used by lib/auth/sms-tencent.test.ts and lib/auth/sms-outbox.test.ts.
 */

export type TencentKeys = { secretId: string; secretKey: string };

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const hmacSha256 = (key: crypto.BinaryLike, text: string) => crypto.createHmac('sha256', key).update(text).digest();

/** Recomputes the signature of a request as Tencent Cloud does; null when it holds, else what is wrong. */
export function tencentSignatureProblem(request: FakeRequest, keys: TencentKeys): string | null {
  const auth =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/([a-z]+)\/tc3_request, SignedHeaders=([a-z;-]+), Signature=([0-9a-f]{64})$/.exec(
      String(request.headers.authorization),
    );
  if (!auth) return `Authorization is not TC3-HMAC-SHA256: ${request.headers.authorization}`;
  const [, secretId, date, service, signedHeaders, signature] = auth;
  if (secretId !== keys.secretId) return 'unknown SecretId';
  if (service !== 'sms') return `credential scope names service ${service}`;
  const timestamp = Number(request.headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) return 'X-TC-Timestamp is not within 5 minutes';
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date) return 'credential date is not the UTC date of the timestamp';
  const names = signedHeaders!.split(';');
  if (!names.includes('content-type') || !names.includes('host')) return 'content-type and host must be signed';
  const headerLines = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .toLowerCase()}\n`,
    )
    .join('');
  const url = new URL(request.url, 'http://fake');
  const canonical = [request.method, url.pathname, url.search.slice(1), headerLines, signedHeaders, sha256(request.body)].join('\n');
  const toSign = ['TC3-HMAC-SHA256', String(timestamp), `${date}/sms/tc3_request`, sha256(canonical)].join('\n');
  const kDate = hmacSha256(`TC3${keys.secretKey}`, date!);
  const kSigning = hmacSha256(hmacSha256(kDate, 'sms'), 'tc3_request');
  if (crypto.createHmac('sha256', kSigning).update(toSign).digest('hex') !== signature) return 'signature does not match';
  return null;
}

/** A refused call: `Response.Error`. */
export const tencentError = (Code: string, Message: string): FakeAnswer => ({
  status: 200,
  body: JSON.stringify({ Response: { Error: { Code, Message }, RequestId: crypto.randomUUID() } }),
});
/** An accepted call: a send status per number, `Ok` or a refusal. */
export const tencentStatus = (Code: string, Message: string): FakeAnswer => ({
  status: 200,
  body: JSON.stringify({
    Response: {
      SendStatusSet: [
        { SerialNo: '2028:f825e6b16e23f73f4123', PhoneNumber: '+8613800138000', Fee: 1, SessionContext: '', Code, Message, IsoCode: 'CN' },
      ],
      RequestId: crypto.randomUUID(),
    },
  }),
});
