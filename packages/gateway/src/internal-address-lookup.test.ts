import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { asHostname, refusingInternalAddresses } from './internal-address-lookup.js';

/** A lookup answering every name with `addresses` (all of them when asked for all). */
const answering =
  (addresses: LookupAddress[]): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
  };

const resolve = (lookup: LookupFunction, all: boolean) =>
  new Promise<unknown>((done) => lookup('cdn.example.com', { all }, (error, address) => done(error ? (error as Error).message : address)));

describe('refusingInternalAddresses', () => {
  it('passes public answers through, one address or all', async () => {
    const lookup = refusingInternalAddresses(
      answering([
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ]),
    );
    expect(await resolve(lookup, false)).toBe('93.184.216.34');
    expect(await resolve(lookup, true)).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('refuses the whole answer when any address is internal, IPv6 forms included', async () => {
    for (const address of ['10.0.0.5', '::1', '::ffff:127.0.0.1', 'fe80::1', 'fd00::1']) {
      const lookup = refusingInternalAddresses(
        answering([
          { address: '93.184.216.34', family: 4 },
          { address, family: address.includes(':') ? 6 : 4 },
        ]),
      );
      expect(await resolve(lookup, true)).toBe(`media host cdn.example.com resolves to the internal address ${address}, which no allow entry names`);
    }
  });

  it('writes addresses as URL hostnames', () => {
    expect(asHostname('127.0.0.1')).toBe('127.0.0.1');
    expect(asHostname('::ffff:127.0.0.1')).toBe('[::ffff:7f00:1]');
    expect(asHostname('not::an::address')).toBe('[not::an::address]');
  });
});
