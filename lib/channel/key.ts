/**
 * Channel key from a host name (spec §1, DESIGN §6): host without port, dots removed,
 * the brand word removed, uppercased. `aurora.localhost:3000` with brand word `localhost` → `AURORA`.
 * Pure, no imports.
 */
export function channelKeyFromHost(host: string, brandWord: string): string {
  const hostname = stripPort(host.trim().toLowerCase());
  const word = brandWord.trim().toLowerCase();
  let key = hostname.replaceAll('.', '');
  if (word) key = key.replaceAll(word.replaceAll('.', ''), '');
  return key.toUpperCase();
}

/**
 * The channel a request is for (DESIGN §6): its host's key, else the deployment's default channel (env
 * DEFAULT_CHANNEL), else '' (no channel). The one rule of the proxy, the API and the routes that read the host.
 */
export function channelKeyForHost(host: string, brandWord: string, defaultChannel?: string): string {
  return channelKeyFromHost(host, brandWord) || defaultChannel || '';
}

function stripPort(host: string): string {
  if (host.startsWith('[')) {
    // IPv6 literal: [::1]:3000
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** A key the storefront can serve: letters and digits only. */
export function isValidChannelKey(key: string): boolean {
  return /^[A-Z0-9]{1,64}$/.test(key);
}
