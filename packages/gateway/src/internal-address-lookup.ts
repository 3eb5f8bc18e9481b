import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isInternalHost } from '@llm/router';

/** Node's default name resolution (`dns.lookup`), as sockets take it. */
export const systemLookup: LookupFunction = dnsLookup as LookupFunction;

/** Thrown (as the connect error) when a media download's host resolves to an internal address. */
export class InternalAddressRefused extends Error {
  readonly code = 'ERR_INTERNAL_ADDRESS_REFUSED';

  constructor(hostname: string, address: string) {
    const what = address === hostname ? 'is an internal address' : `resolves to the internal address ${address}`;
    super(`media host ${hostname} ${what}, which no allow entry names`);
    this.name = 'InternalAddressRefused';
  }
}

/**
 * `lookup` that fails when any address a name resolves to is internal (the router's
 * `isInternalHost`: loopback, private, link-local...). A socket connects to an address its
 * lookup returned, so the address checked is the address connected to: a name that resolves
 * to a public address at check time and an internal one at connect time (DNS rebinding) has
 * no window. Any internal address refuses the whole answer, so a mixed answer cannot slip one
 * through a later connection attempt.
 */
export function refusingInternalAddresses(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses: readonly LookupAddress[] = typeof address === 'string' ? [{ address, family: family ?? 0 }] : address;
      const internal = addresses.find((entry) => isInternalHost(asHostname(entry.address)));
      if (internal) return callback(new InternalAddressRefused(hostname, internal.address), '', 0);
      callback(null, address, family);
    });
  };
}

/**
 * An address as a WHATWG URL's hostname writes it, the form `isInternalHost` reads: IPv6 in
 * brackets and compressed, with an embedded dotted IPv4 (`::ffff:127.0.0.1`) in hex.
 */
export function asHostname(address: string): string {
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname;
  } catch {
    return `[${address}]`; // unreadable: isInternalHost refuses what it cannot read
  }
}
