import crypto from 'node:crypto';
import type { FakeAnswer, FakeRequest } from './fake-http';

/**
 * Alibaba Cloud SMS (Dysmsapi) as a fake carrier sees it: the ACS3-HMAC-SHA256 signature of a request checked the way
 * Alibaba Cloud's "V3 request structure and signature" describes it, computed here on its own (not with the provider's
 * signer), and the carrier's answers. Used by lib/auth/sms-aliyun.test.ts and scripts/deploy-fakes.ts.
 */

export type AliyunKeys = { accessKeyId: string; accessKeySecret: string };

/** Recomputes the signature of a request as Alibaba Cloud does; null when it holds, else what is wrong. */
export function aliyunSignatureProblem(request: FakeRequest, keys: AliyunKeys): string | null {
  const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(
    String(request.headers.authorization),
  );
  if (!auth) return `Authorization is not ACS3-HMAC-SHA256: ${request.headers.authorization}`;
  const [, keyId, signedHeaders, signature] = auth;
  if (keyId !== keys.accessKeyId) return 'unknown AccessKeyId';
  const names = signedHeaders!.split(';');
  for (const required of ['host', 'x-acs-action', 'x-acs-version', 'x-acs-date', 'x-acs-signature-nonce', 'x-acs-content-sha256']) {
    if (!names.includes(required)) return `${required} is not signed`;
  }
  if ([...names].sort().join(';') !== signedHeaders) return 'SignedHeaders are not sorted';
  const bodyHash = crypto.createHash('sha256').update(request.body).digest('hex');
  if (request.headers['x-acs-content-sha256'] !== bodyHash) return 'x-acs-content-sha256 is not the body hash';
  const url = new URL(request.url, 'http://fake');
  const query = [...url.searchParams.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  const headerLines = names.map((name) => `${name}:${String(request.headers[name] ?? '').trim()}\n`).join('');
  const canonical = `${request.method}\n${url.pathname}\n${query}\n${headerLines}\n${signedHeaders}\n${bodyHash}`;
  const toSign = `ACS3-HMAC-SHA256\n${crypto.createHash('sha256').update(canonical).digest('hex')}`;
  const expected = crypto.createHmac('sha256', keys.accessKeySecret).update(toSign).digest('hex');
  if (expected !== signature) return 'signature does not match';
  const date = Date.parse(String(request.headers['x-acs-date']));
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(String(request.headers['x-acs-date'])) || Math.abs(Date.now() - date) > 15 * 60_000)
    return 'x-acs-date is not a current ISO 8601 UTC time';
  return null;
}

/** An answer of Dysmsapi: `OK` with a BizId, or a vendor code. */
export const aliyunAnswer = (Code: string, Message: string, status = 200): FakeAnswer => ({
  status,
  body: JSON.stringify({ Code, Message, RequestId: crypto.randomUUID(), ...(Code === 'OK' ? { BizId: '900619746936498440^0' } : {}) }),
});
