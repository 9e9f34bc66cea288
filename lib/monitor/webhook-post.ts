import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { parseAddress } from '../security/address';

/**
 * The post of one alert to one webhook, and the rules on where it may go (issue 32, "Reports": alerts go "to a webhook
 * the owner sets"). An owner types the URL, so it is hostile input: a webhook that points inside the deployment's
 * network would let anyone who can be an owner make the server call its metadata service or an internal admin port
 * (server-side request forgery). In production (NODE_ENV=production without DEMO_MODE, as lib/env.ts's
 * productionEndpointProblem), the address a name resolves to is checked at the moment of connecting, in the socket's
 * own lookup, so a name that resolves outside when set and inside later (DNS rebinding) is refused too. Out of
 * production loopback is allowed: the tests' receivers listen on 127.0.0.1. No redirect is followed; one post has
 * WEBHOOK_TIMEOUT_MS; at most WEBHOOK_ANSWER_BYTES of the answer are read. docs/security.md, "Alert webhooks".
 */

/** How long one post may take, connection to last byte. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** How much of a receiver's answer is read (WeCom's and DingTalk's answers are a few dozen bytes). */
export const WEBHOOK_ANSWER_BYTES = 4_096;

/** What the URL and address checks apply: production's, or the tests' and the demo's (loopback allowed). */
export type WebhookRules = { production: boolean };

const v4 = (bytes: number[], a: number, b: number, bits: number) => {
  // Whether the address is in a.b.0.0/bits (bits 8 to 16).
  const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
  return (((bytes[0]! << 8) | bytes[1]!) & mask) >>> 0 === (((a << 8) | b) & mask);
};

/**
 * Whether an address reaches inside rather than the internet: this machine, private networks, link-local (the cloud
 * metadata services at 169.254.169.254 and fd00:ec2::254), carrier-grade NAT (Alibaba Cloud's metadata at
 * 100.100.100.200), benchmarking, multicast and reserved ranges; IPv6's loopback, unspecified, unique-local (fc00::/7),
 * link-local (fe80::/10) and multicast, and IPv4 carried in IPv6 (mapped, NAT64, 6to4) by its IPv4 address.
 */
export function isInternalAddress(raw: string): boolean {
  const parsed = parseAddress(raw);
  if (!parsed) return true; // not an address: nothing to trust
  const b = parsed.bytes;
  if (parsed.family === 4) {
    return (
      b[0] === 0 ||
      b[0] === 10 ||
      b[0] === 127 ||
      v4(b, 100, 64, 10) ||
      v4(b, 169, 254, 16) ||
      v4(b, 172, 16, 12) ||
      (b[0] === 192 && b[1] === 0 && (b[2] === 0 || b[2] === 2)) ||
      v4(b, 192, 168, 16) ||
      v4(b, 198, 18, 15) ||
      (b[0] === 198 && b[1] === 51 && b[2] === 100) ||
      (b[0] === 203 && b[1] === 0 && b[2] === 113) ||
      b[0]! >= 224
    );
  }
  const word = (i: number) => (b[2 * i]! << 8) | b[2 * i + 1]!;
  if (b.every((x) => x === 0)) return true; // ::
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return true; // ::1
  if ((b[0]! & 0xfe) === 0xfc) return true; // fc00::/7 unique-local (fd00:ec2::254: AWS metadata)
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return true; // fe80::/10 link-local
  if (b[0] === 0xff) return true; // multicast
  const embedded = (offset: number) => isInternalAddress(b.slice(offset, offset + 4).join('.'));
  if (word(0) === 0x64 && word(1) === 0xff9b) return embedded(12); // 64:ff9b::/96 NAT64
  if (word(0) === 0x2002) return embedded(2); // 6to4
  if (b.slice(0, 12).every((x) => x === 0)) return embedded(12); // ::a.b.c.d (deprecated IPv4-compatible)
  if (word(0) === 0x2001 && word(1) === 0xdb8) return true; // documentation
  return false;
}

/** The host of a URL as a lookup takes it: IPv6 literals without their brackets. */
const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** Names that are this machine by definition (RFC 6761), whatever a resolver says. */
const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** Why a host may not be posted to under `rules` (checked before any lookup), or null. */
export function hostProblem(hostname: string, rules: WebhookRules): string | null {
  if (!rules.production) return null;
  const host = bareHost(hostname.toLowerCase());
  if (isLocalName(host)) return `${host} is this machine`;
  if (isIP(host) && isInternalAddress(host)) return `${host} is an internal address`;
  return null;
}

/** Resolves a host name: the machine's resolver, or a test's. */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** The socket's lookup: resolves, and under production's rules refuses a name with any address inside. */
function guardedLookup(rules: WebhookRules, resolveName: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolveName(hostname).then(
      (addresses) => {
        const inside = rules.production ? addresses.find((a) => isInternalAddress(a.address)) : undefined;
        if (inside) {
          callback(new WebhookAddressError(`${hostname} resolves to an internal address (${inside.address})`), '', 4);
          return;
        }
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
          return;
        }
        if ((options as { all?: boolean }).all) {
          (callback as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, addresses);
        } else {
          callback(null, addresses[0]!.address, addresses[0]!.family);
        }
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

/** A post refused because the webhook's address is inside (production only). */
export class WebhookAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAddressError';
  }
}

/** What a receiver answered: its HTTP status and the start of its body. */
export type WebhookAnswer = { status: number; body: string };

/** What posts a webhook: the guarded HTTP client below, or a test's double. Throws when nothing was answered. */
export type WebhookPost = (url: string, init: { headers: Record<string, string>; body: string }) => Promise<WebhookAnswer>;

/**
 * The poster under `rules`: node:http(s) with the guarded lookup, no redirects (a 3xx is an answer like any other),
 * WEBHOOK_TIMEOUT_MS for the whole exchange, at most WEBHOOK_ANSWER_BYTES of the body read.
 */
export function guardedPost(rules: WebhookRules, resolveName: Resolve = systemResolve): WebhookPost {
  return (url, init) =>
    new Promise<WebhookAnswer>((resolve, reject) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        reject(new Error('the URL is not valid'));
        return;
      }
      const problem = hostProblem(target.hostname, rules);
      if (problem) {
        reject(new WebhookAddressError(problem));
        return;
      }
      if (target.protocol !== 'https:' && (target.protocol !== 'http:' || rules.production)) {
        reject(new Error(`${target.protocol} is not allowed`));
        return;
      }
      const client = target.protocol === 'https:' ? https : http;
      const body = Buffer.from(init.body, 'utf8');
      const request = client.request(
        target,
        {
          method: 'POST',
          headers: { ...init.headers, 'content-length': String(body.length), 'user-agent': 'storefront-alerts' },
          lookup: guardedLookup(rules, resolveName),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size >= WEBHOOK_ANSWER_BYTES) return;
            chunks.push(chunk);
            size += chunk.length;
            if (size >= WEBHOOK_ANSWER_BYTES) response.destroy();
          });
          const done = () => {
            clearTimeout(timer);
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).subarray(0, WEBHOOK_ANSWER_BYTES).toString('utf8'),
            });
          };
          response.on('end', done);
          response.on('close', done);
          response.on('error', done);
        },
      );
      const timer = setTimeout(() => request.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`)), WEBHOOK_TIMEOUT_MS);
      timer.unref?.();
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.end(body);
    });
}
