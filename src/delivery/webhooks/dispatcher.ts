import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { rootCertificates } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { addressAllowed, AddressRefusedError, type AddressPolicy } from './address-policy.js';

/** Resolves a host name to every address it has (dns.lookup by default; tests may play DNS). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

export interface DispatcherOptions extends Pick<AddressPolicy, 'allowPrivateAddresses'> {
  timeoutMs: number;
  resolver?: Resolver;
  /**
   * Test-only: a CA certificate trusted in addition to Node's default store (never instead of it). The service
   * and `npm run worker` never set it; they trust receivers the standard way (NODE_EXTRA_CA_CERTS). Tests that
   * run the worker inside the test process use it, because NODE_EXTRA_CA_CERTS is read only at process start.
   */
  extraCaForTests?: string;
}

/**
 * The undici dispatcher of webhook deliveries. Node's built-in fetch ignores http.Agent, so the SSRF rules
 * live in the dispatcher's connector, where they see the address actually connected to:
 * - the DNS lookup refuses a name when any of its addresses is not public (so a rebinding answer cannot pick a
 *   private one later in the same connection attempt);
 * - after the socket connects, its remote address is checked again (IP-literal hosts skip DNS entirely).
 * One connection per request (no keep-alive pool reuse across hosts' changing DNS answers), no redirects.
 */
export function createWebhookDispatcher(options: DispatcherOptions): Agent {
  const resolver = options.resolver ?? systemResolver;
  const lookup = (
    hostname: string,
    lookupOptions: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolver(hostname).then(
      (addresses) => {
        const refused = addresses.find((a) => !addressAllowed(a.address, options));
        if (refused) return callback(new AddressRefusedError(hostname, refused.address), '');
        if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        if (lookupOptions.all) return callback(null, addresses);
        const first = addresses[0]!;
        return callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
  const connector = buildConnector({
    lookup: lookup as never,
    timeout: options.timeoutMs,
    ...(options.extraCaForTests ? { ca: [...rootCertificates, options.extraCaForTests] } : {}),
  });
  return new Agent({
    connect: (connectOptions, callback) => {
      connector(connectOptions, (err, socket) => {
        if (err || !socket) return callback(err ?? new Error('no socket'), null);
        const remote = socket.remoteAddress;
        if (!addressAllowed(remote, options)) {
          socket.destroy();
          return callback(new AddressRefusedError(connectOptions.hostname, remote ?? 'unknown'), null);
        }
        return callback(null, socket);
      });
    },
    pipelining: 0,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}
