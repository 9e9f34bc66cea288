import type { Limit } from './rate-limit';
import { networkOf, parseAddress } from '../security/address';

/** What one client may do per window: as one address, and as one network of addresses. */
export type AddressAllowance = { perAddress: number; perNetwork: number };

/**
 * The limits for a call from `ip`, in the order they are checked: the exact address (as normalised), then its network.
 * The network is left out when it is the address itself (IPv4 at /32), so the address's own figure stands. A caller
 * without an address (no entry server: 'unknown') is counted under that name, as before.
 */
export function addressLimits(
  name: string,
  ip: string,
  windowMs: number,
  allowance: AddressAllowance,
  ipv4Prefix: number,
): [Limit, ...Limit[]] {
  const address = parseAddress(ip);
  if (!address) return [{ bucket: `${name}:ip:${ip}`, max: allowance.perAddress, windowMs }];
  const own: Limit = { bucket: `${name}:ip:${address.address}`, max: allowance.perAddress, windowMs };
  if (address.family === 4 && ipv4Prefix >= 32) return [own];
  return [own, { bucket: `${name}:net:${networkOf(address, ipv4Prefix)}`, max: allowance.perNetwork, windowMs }];
}
