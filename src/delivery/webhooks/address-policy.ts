import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * SSRF rules of webhook deliveries (docs/webhooks.md, "SSRF rules"). Only public unicast
 * addresses are ever connected to: private, loopback, link-local, unique-local, carrier-grade NAT, multicast,
 * reserved, documentation, IPv4-mapped and the other special IPv6 ranges are refused, unless
 * WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 (tests only).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  // ipaddr.js names every special-purpose range; whatever is not special is 'unicast' (globally routable)
  return parsed.range() === 'unicast';
}

export class AddressRefusedError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
  constructor(host: string, address: string) {
    super(`refused to connect to ${host}: ${address} is not a public address`);
    this.name = 'AddressRefusedError';
  }
}

export class HostNotAllowedError extends Error {
  readonly code = 'WEBHOOK_HOST_NOT_ALLOWED';
  constructor(host: string) {
    super(`host ${host} is not in WEBHOOK_HOST_ALLOWLIST`);
    this.name = 'HostNotAllowedError';
  }
}

export interface AddressPolicy {
  allowPrivateAddresses: boolean;
  hostAllowlist: readonly string[];
}

/** The URL may be called at all: HTTPS, allowlisted host, and an IP literal host must be public. */
export function checkEndpoint(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== 'https:') throw new Error(`refused ${url.protocol} endpoint: HTTPS only`);
  const host = url.hostname.toLowerCase();
  if (policy.hostAllowlist.length && !policy.hostAllowlist.includes(host)) throw new HostNotAllowedError(host);
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal) && !policy.allowPrivateAddresses && !isPublicAddress(literal)) throw new AddressRefusedError(host, literal);
}

/** Whether a connection to `address` may go on. */
export function addressAllowed(address: string | undefined, policy: Pick<AddressPolicy, 'allowPrivateAddresses'>): boolean {
  if (policy.allowPrivateAddresses) return true;
  return address !== undefined && isPublicAddress(address);
}
