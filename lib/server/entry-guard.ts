import type { IncomingMessage, ServerResponse } from 'node:http';
import { securityHeaders } from '../security/headers';

/**
 * The entry server's first step after the forwarding headers (server.ts; issue 29), in plain Node, before Next sees
 * the request:
 * - every answer starts with the security headers but the CSP (lib/security/headers.ts), HSTS when the scheme the
 *   entry server resolved is https. Next's config headers and the proxy set the same names to the same values
 *   (replacing, never repeating them), and pages add their nonce CSP; what Next answers by itself (a bare 500, the
 *   redirect of `//x` to `/x`, an image optimizer refusal) no longer goes out without them;
 * - a request Next cannot read is refused with 400 and those headers, where Next answered a bare 500 (no headers):
 *   a path whose percent-escapes are not UTF-8 (`%FF`, `%C0%AF`, `%E4%B8`, a lone `%`: Next fails to decode its
 *   route parameters), a path that decodes to control characters (NUL reached the database), a request target that
 *   is not a path (`*`, `http://other/...`), a Host that is not a host name and port (next-auth fails to build its
 *   URLs), and an image optimizer call whose `url` is such a path.
 * What the guard refuses is never a page or call a browser makes: browsers percent-encode UTF-8 and send a Host.
 */
export type EntryVerdict = 'admitted' | 'answered';

/** Answers `req` with 400 when Next cannot read it, else presets the security headers on `res` for Next to keep. */
export function guardEntry(req: IncomingMessage, res: ServerResponse): EntryVerdict {
  const https = req.headers['x-forwarded-proto'] === 'https';
  for (const [name, value] of Object.entries(securityHeaders({ https }))) res.setHeader(name, value);
  const problem = unreadableRequest(req.url ?? '', req.headers.host);
  if (problem === null) return 'admitted';
  const api = (req.url ?? '').startsWith('/api/');
  res.statusCode = 400;
  res.setHeader('cache-control', 'no-store');
  if (api) {
    // The market API's envelope (docs/api.md), so API clients read the refusal as they read any other.
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ code: 400, message: problem, data: null }));
  } else {
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end(`Bad request: ${problem}\n`);
  }
  return 'answered';
}

// C0 controls, DEL and C1 controls: no path of the storefront has them, and PostgreSQL cannot store NUL.
const CONTROL = /\p{Cc}/u;

/** What Next could not read in a request with this target and Host header, in words; null when it can read it. */
export function unreadableRequest(target: string, host: string | undefined): string | null {
  if (!target.startsWith('/')) return 'request target: must be a path such as /goods/detail/1';
  if (host !== undefined && !validHost(host)) return 'host: must be a host name with an optional port';
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  const pathProblem = undecodable(path, 'path');
  if (pathProblem) return pathProblem;
  // Next's image optimizer decodes a local `url` itself and answers a bare 500 when it cannot.
  if (path === '/_next/image' && query !== -1) {
    const url = new URLSearchParams(target.slice(query + 1)).get('url');
    if (url?.startsWith('/')) return undecodable(url.split('?')[0]!, 'url');
  }
  return null;
}

function undecodable(path: string, what: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return `${what}: has a percent-escape that is not UTF-8 (such as %FF, %C0%AF, %E4%B8 or a lone %)`;
  }
  return CONTROL.test(decoded) ? `${what}: must not contain control characters (such as %00 or %0A)` : null;
}

/** A Host header value RFC 9110 allows: a name or an IPv4 address or a bracketed IPv6 one, and a port of 1–65535. */
function validHost(host: string): boolean {
  const match = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
}

/**
 * What the entry server writes on a connection whose request Node's HTTP parser refused before any handler ran (raw
 * control bytes in the request line or a header, a header block over the size limit, a request that timed out):
 * Node's own answer is a bare `400 Bad Request` without the security headers. The same status, with them (no HSTS:
 * nothing about the request, the scheme included, could be read), and the connection closed.
 */
export function clientErrorAnswer(error: { code?: string }): string {
  const [status, reason] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request'];
  const body = `${reason}\n`;
  const headers = {
    ...securityHeaders({ https: false }),
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return [`HTTP/1.1 ${status} ${reason}`, ...head, '', body].join('\r\n');
}
