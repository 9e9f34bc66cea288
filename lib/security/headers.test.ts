import { contentSecurityPolicy, newNonce, originOf, securityHeaders } from './headers';

describe('security headers (DESIGN §10)', () => {
  it('allows scripts only with the nonce, and no eval outside development', () => {
    const csp = contentSecurityPolicy('abc123', { dev: false, https: true });
    expect(csp).toContain(`script-src 'self' 'nonce-abc123' 'strict-dynamic'`);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain(`object-src 'none'`);
    expect(csp).toContain(`frame-ancestors 'self'`);
    expect(csp).toContain('upgrade-insecure-requests');
    expect(contentSecurityPolicy('n', { dev: true, https: false })).toContain(`'unsafe-eval'`);
    expect(contentSecurityPolicy('n', { dev: false, https: false })).not.toContain('upgrade-insecure-requests');
  });

  it('lets pages reach an outside log service', () => {
    expect(originOf('https://log.example.com/batch')).toEqual(['https://log.example.com']);
    expect(originOf('/api/log/track')).toEqual([]);
    expect(contentSecurityPolicy('n', { dev: false, https: true, connectSources: ['https://log.example.com'] })).toContain(
      `connect-src 'self' https://log.example.com`,
    );
  });

  it('sends HSTS only over HTTPS', () => {
    expect(securityHeaders({ https: true })).toHaveProperty('strict-transport-security');
    expect(securityHeaders({ https: false })).not.toHaveProperty('strict-transport-security');
    expect(securityHeaders({ https: false })['x-content-type-options']).toBe('nosniff');
  });

  it('makes a different 128-bit nonce every time', () => {
    const a = newNonce();
    expect(atob(a)).toHaveLength(16);
    expect(newNonce()).not.toBe(a);
  });
});
