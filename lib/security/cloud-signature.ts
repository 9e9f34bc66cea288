import { createHash, createHmac } from 'node:crypto';

/**
 * The two cloud vendors' request signatures, written by hand on node:crypto (docs/decisions.md, "SMS carriers without
 * their SDKs"): Tencent Cloud's TC3-HMAC-SHA256 ("Signature v3") and Alibaba Cloud's ACS3-HMAC-SHA256 ("V3 request
 * structure and signature"). Pure; shared by the SMS carriers (lib/auth/sms-tencent.ts, sms-aliyun.ts) and the identity
 * vendors (lib/identity/tencent-faceid.ts, aliyun-cloudauth.ts), which sit below auth in the layer order (issue 33).
 */

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** The body's type every Tencent Cloud call of ours sends and signs. */
export const TC3_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The arguments of one TC3-signed call (the service is the signer's: `sms`, `faceid`). */
export type Tc3Request = { host: string; action: string; body: string; secretId: string; secretKey: string; timestamp: number };

/**
 * The Authorization header of one call to a Tencent Cloud `service`. Canonical request: POST, `/`, no query, the
 * `content-type`, `host` and `x-tc-action` headers (lowercased; the action's value lowercased), their names, the body's
 * SHA-256. The key is derived from the secret through the UTC date, the service and `tc3_request`.
 */
export function tencentSigner(service: string): (input: Tc3Request) => string {
  return (input) => {
    const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
    const canonicalHeaders = `content-type:${TC3_CONTENT_TYPE}\nhost:${input.host}\nx-tc-action:${input.action.toLowerCase()}\n`;
    const signedHeaders = 'content-type;host;x-tc-action';
    const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(input.body)].join('\n');
    const scope = `${date}/${service}/tc3_request`;
    const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
    const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), service), 'tc3_request');
    const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
    return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  };
}

/** RFC 3986 percent-encoding as Alibaba Cloud's signature wants it: `encodeURIComponent` plus !'()*. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** An RPC call's parameters as the form body Alibaba Cloud takes (kept out of URLs and their logs). */
export function aliyunFormBody(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
    .join('&');
}

/**
 * The signed headers of one Alibaba Cloud RPC call whose parameters travel as a form body. Canonical request: method,
 * URI, query (none), the `host`, `content-type` and `x-acs-*` headers sorted and lowercased, their names, the body's
 * SHA-256; the string to sign is the algorithm and the canonical request's SHA-256.
 */
export function signAliyunRequest(input: {
  host: string;
  action: string;
  version: string;
  body: string;
  accessKeyId: string;
  accessKeySecret: string;
  now: Date;
  nonce: string;
}): Record<string, string> {
  const headers: Record<string, string> = {
    host: input.host,
    'content-type': 'application/x-www-form-urlencoded',
    'x-acs-action': input.action,
    'x-acs-version': input.version,
    'x-acs-date': input.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    'x-acs-signature-nonce': input.nonce,
    'x-acs-content-sha256': sha256Hex(input.body),
  };
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((name) => `${name}:${headers[name]!.trim()}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, headers['x-acs-content-sha256']].join('\n');
  const stringToSign = `ACS3-HMAC-SHA256\n${sha256Hex(canonicalRequest)}`;
  const signature = createHmac('sha256', input.accessKeySecret).update(stringToSign, 'utf8').digest('hex');
  return {
    ...headers,
    authorization: `ACS3-HMAC-SHA256 Credential=${input.accessKeyId},SignedHeaders=${signedHeaders},Signature=${signature}`,
  };
}
