import { createHash, createHmac, randomBytes } from 'node:crypto';
import { cookieValue } from './cookies';

/**
 * The storefront_device cookie: a random id per browser, so SMS limits can count per device as well as per IP
 * (security review, finding 4). It proves nothing (a bot can drop it), which is why the IP limits stand beside it;
 * it lets one noisy device be slowed without slowing everyone behind the same carrier NAT.
 */
export const DEVICE_COOKIE = 'storefront_device';
const DEVICE_ID = /^[A-Za-z0-9_-]{22,64}$/;

/** The device id from a Cookie header, or null when absent or not one of ours. */
export function deviceIdFrom(cookieHeader: string | null | undefined): string | null {
  const value = cookieValue(cookieHeader, DEVICE_COOKIE);
  return value && DEVICE_ID.test(value) ? value : null;
}

/** A new device id and its Set-Cookie header (a year, HttpOnly, SameSite=Lax, Secure on HTTPS). */
export function deviceCookie(https: boolean): { id: string; header: string } {
  const id = randomBytes(16).toString('base64url');
  return { id, header: `${DEVICE_COOKIE}=${id}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax${https ? '; Secure' : ''}` };
}

/**
 * How a device id is stored where it outlives its rate-limit window (the devices that logged in on a channel, issue 29):
 * SHA-256, hex. The id is 128 random bits, so the hash cannot be turned back into a cookie that would pass as the device.
 */
export function deviceHash(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * How a device is named where it links a buy to the share visit that brought it (issue 36, docs/sharing.md): on the share
 * visit and on the order. HMAC-SHA-256 under the server's secret, 128 bits in hex: nothing of the id in clear, and a
 * stored value cannot be checked against a cookie without the secret.
 */
export function deviceKey(id: string, secret: string): string {
  return createHmac('sha256', secret).update(`share-device:${id}`).digest('hex').slice(0, 32);
}
