import { createHash, randomBytes } from 'node:crypto';

/**
 * WeChat JS-SDK's `wx.config` signature (issue 36; docs/wechat.md): SHA-1, in hex, of
 * `jsapi_ticket=…&noncestr=…&timestamp=…&url=…`, the four fields in that order, the values as they are (no escaping),
 * the page's URL without its `#hash`. WeChat's published algorithm (JS-SDK documentation, appendix 1).
 */
export function jsSdkSignature(input: { ticket: string; nonceStr: string; timestamp: number; url: string }): string {
  const text = `jsapi_ticket=${input.ticket}&noncestr=${input.nonceStr}&timestamp=${input.timestamp}&url=${input.url}`;
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

/** A nonce for one `wx.config`: 16 letters and digits (WeChat takes up to 32). */
export function newNonceStr(): string {
  return randomBytes(12).toString('base64url').replace(/[-_]/g, 'x').slice(0, 16);
}
