import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientIp } from '@/lib/server/client-ip';
import {
  normalizeAddress,
  parseTrustedProxies,
  resolveForwarded,
  rewriteForwardingHeaders,
  type TrustedProxies,
} from '@/lib/security/forwarded';

// Security review, finding 2: any per-IP limit was bypassed by a made-up X-Forwarded-For (Next keeps a client's header),
// and the spoofed value was stored as the session's and the code's IP. Also finding 14: next-auth trusted X-Forwarded-Host.

const none = parseTrustedProxies('');

describe('the client address (finding 2)', () => {
  it('is the socket peer when no proxy is trusted, whatever the client claims', () => {
    const view = resolveForwarded('203.0.113.9', { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https' }, none);
    expect(view).toEqual({ clientIp: '203.0.113.9', proto: 'http' });
  });

  it('ignores forwarding headers from a peer that is not a trusted proxy', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8');
    expect(resolveForwarded('203.0.113.9', { 'x-forwarded-for': '1.2.3.4' }, trusted).clientIp).toBe('203.0.113.9');
  });

  it('walks X-Forwarded-For right to left through trusted proxies only', () => {
    const trusted = parseTrustedProxies('10.0.0.1, 10.0.1.0/24');
    // client → (spoofs 6.6.6.6) → CDN 10.0.1.7 → proxy 10.0.0.1 → us
    const view = resolveForwarded(
      '10.0.0.1',
      { 'x-forwarded-for': '6.6.6.6, 198.51.100.23, 10.0.1.7', 'x-forwarded-proto': 'https' },
      trusted,
    );
    expect(view).toEqual({ clientIp: '198.51.100.23', proto: 'https' });
  });

  it('understands IPv4-mapped IPv6 peers, ports and brackets', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress('[2001:db8::1]')).toBe('2001:db8::1');
    expect(normalizeAddress('203.0.113.5:4431')).toBe('203.0.113.5');
    expect(normalizeAddress('not an ip')).toBeNull();
    expect(parseTrustedProxies('::1, 127.0.0.1').check('::ffff:127.0.0.1')).toBe(true);
  });

  it('refuses a TRUSTED_PROXIES entry that is not an address or range', () => {
    expect(() => parseTrustedProxies('10.0.0.1, proxy.local')).toThrow('TRUSTED_PROXIES: "proxy.local" is not an IP address or CIDR range');
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/bad prefix length/);
  });

  describe('through a real HTTP server, as server.ts runs it', () => {
    let server: Server;
    let trusted: TrustedProxies = none;
    let seen: Headers;
    beforeAll(async () => {
      server = createServer((req, res) => {
        rewriteForwardingHeaders(req.headers, req.socket.remoteAddress, trusted);
        seen = new Headers(Object.entries(req.headers).map(([k, v]): [string, string] => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
        res.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const get = (headers: Record<string, string>) =>
      new Promise<void>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', headers }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });

    it('drops every forwarding header a client sends and sets the truth', async () => {
      trusted = none;
      await get({
        'x-forwarded-for': '1.2.3.4',
        'x-real-ip': '1.2.3.4',
        'x-client-ip': '1.2.3.4',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        forwarded: 'for=1.2.3.4',
      });
      expect(clientIp(seen)).toBe('127.0.0.1');
      expect(seen.get('x-forwarded-for')).toBe('127.0.0.1');
      expect(seen.get('x-forwarded-proto')).toBe('http');
      // next-auth builds its URLs from X-Forwarded-Host, else Host (finding 14): only Host is left.
      expect(seen.get('x-forwarded-host')).toBeNull();
      expect(seen.get('x-real-ip')).toBeNull();
      expect(seen.get('forwarded')).toBeNull();
    });

    it('believes a configured proxy', async () => {
      trusted = parseTrustedProxies('127.0.0.1');
      await get({ 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' });
      expect(clientIp(seen)).toBe('198.51.100.7');
      expect(seen.get('x-forwarded-proto')).toBe('https');
    });
  });
});
