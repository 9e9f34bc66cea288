import { channelKeyForHost, channelKeyFromHost, isValidChannelKey } from './key';

// spec §1 / DESIGN §6: host without port, dots removed, the brand word removed, uppercased.
describe('channelKeyFromHost', () => {
  it('turns a demo host into its channel key, whatever the port', () => {
    expect(channelKeyFromHost('aurora.localhost', 'localhost')).toBe('AURORA');
    expect(channelKeyFromHost('aurora.localhost:3000', 'localhost')).toBe('AURORA');
    expect(channelKeyFromHost('lumen.localhost:3100', 'localhost')).toBe('LUMEN');
  });

  it('removes every dot of the host, not only the one before the brand word', () => {
    expect(channelKeyFromHost('gift.north.localhost', 'localhost')).toBe('GIFTNORTH');
    expect(channelKeyFromHost('chain.localhost.', 'localhost')).toBe('CHAIN');
  });

  it('removes a brand word made of several labels (dots and all)', () => {
    expect(channelKeyFromHost('aurora.shop.example', 'shop.example')).toBe('AURORA');
    expect(channelKeyFromHost('swap.shop.example:443', 'shop.example')).toBe('SWAP');
  });

  it('ignores the case of the host and of the brand word', () => {
    expect(channelKeyFromHost('Aurora.LocalHost:3000', 'localhost')).toBe('AURORA');
    expect(channelKeyFromHost('aurora.shop.example', 'Shop.Example')).toBe('AURORA');
    expect(channelKeyFromHost('  aurora.localhost  ', ' localhost ')).toBe('AURORA');
  });

  it('keeps the brand word when none is configured', () => {
    expect(channelKeyFromHost('aurora.localhost', '')).toBe('AURORALOCALHOST');
  });

  it('gives an empty key for the bare brand host, so the caller falls back to DEFAULT_CHANNEL', () => {
    expect(channelKeyFromHost('localhost', 'localhost')).toBe('');
    expect(channelKeyFromHost('localhost:3000', 'localhost')).toBe('');
    expect(channelKeyFromHost('shop.example', 'shop.example')).toBe('');
  });

  it('strips the port of an IPv6 literal and yields no servable key', () => {
    const withPort = channelKeyFromHost('[::1]:3000', 'localhost');
    expect(withPort).toBe(channelKeyFromHost('[::1]', 'localhost'));
    expect(withPort).not.toContain('3000');
    expect(isValidChannelKey(withPort)).toBe(false);
  });
});

describe('isValidChannelKey', () => {
  it('accepts uppercase letters and digits', () => {
    expect(isValidChannelKey('AURORA')).toBe(true);
    expect(isValidChannelKey('SHOP2')).toBe(true);
    expect(isValidChannelKey('A'.repeat(64))).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['lowercase', 'aurora'],
    ['a dot', 'AURORA.X'],
    ['a hyphen', 'AUR-ORA'],
    ['a space', 'AUR ORA'],
    ['an IPv6 literal', '[::1]'],
    ['SQL-looking text', "A' OR '1'='1"],
    ['65 characters', 'A'.repeat(65)],
  ])('refuses a key with %s', (_what, key) => {
    expect(isValidChannelKey(key)).toBe(false);
  });
});

describe('channelKeyForHost', () => {
  it("is the host's key when the host names a channel", () => {
    expect(channelKeyForHost('aurora.localhost:3000', 'localhost', 'LUMEN')).toBe('AURORA');
  });

  it('falls back to the default channel when the host is only the brand word', () => {
    expect(channelKeyForHost('localhost:3000', 'localhost', 'LUMEN')).toBe('LUMEN');
    expect(channelKeyForHost('', 'localhost', 'LUMEN')).toBe('LUMEN');
  });

  it('is empty (no channel) with neither', () => {
    expect(channelKeyForHost('localhost', 'localhost')).toBe('');
    expect(channelKeyForHost('localhost', 'localhost', '')).toBe('');
  });
});
