/**
 * Hosts a media download must not reach unless the allowlist names them: loopback, link-local,
 * private, shared, unspecified, multicast and reserved addresses, and `localhost`. The ranges are
 * those of the IANA special-purpose registries (RFC 6890 and its updates) that are not globally
 * reachable, plus documentation and benchmarking ranges (nothing public lives there), and the
 * IPv6 forms that embed an IPv4 address (mapped, translated, compatible, NAT64, 6to4, Teredo),
 * judged by the address they embed. Works on a
 * WHATWG URL's `hostname`, which is already normalized: IPv4 in dotted decimal (`0x7f.1` and
 * `2130706433` read as `127.0.0.1`), IPv6 in brackets, compressed, lower case.
 *
 * A name that resolves to such an address is not caught here: the router, on Web-standard APIs
 * only, cannot see resolution. It marks each download `UpstreamRequest.purpose: 'media'` (with
 * `internalAllowed` when an allow entry names the host), so that a transport that can resolve
 * names refuses internal addresses at connect time; the gateway's transport does.
 */

/** True for a hostname that is, or embeds, a non-public address, or names the local machine. */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = ipv4Octets(host);
  if (v4) return isInternalIpv4(v4);
  if (host.startsWith('[') && host.endsWith(']')) {
    const hextets = ipv6Hextets(host.slice(1, -1));
    // An IPv6 literal the URL parser accepted but this reader cannot: refuse rather than guess.
    return hextets ? isInternalIpv6(hextets) : true;
  }
  return false;
}

function ipv4Octets(host: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!match) return undefined;
  const octets = match.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function isInternalIpv4([a, b, c]: number[]): boolean {
  if (a === undefined || b === undefined || c === undefined) return true;
  return (
    a === 0 || // "this network" 0/8, 0.0.0.0 unspecified
    a === 10 || // private 10/8
    a === 127 || // loopback 127/8
    (a === 100 && b >= 64 && b <= 127) || // shared address space (carrier NAT) 100.64/10
    (a === 169 && b === 254) || // link-local 169.254/16 (cloud metadata endpoints live here)
    (a === 172 && b >= 16 && b <= 31) || // private 172.16/12
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments 192.0.0/24, TEST-NET-1 192.0.2/24
    (a === 192 && b === 168) || // private 192.168/16
    (a === 198 && (b === 18 || b === 19)) || // benchmarking 198.18/15
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2 198.51.100/24
    (a === 203 && b === 0 && c === 113) || // TEST-NET-3 203.0.113/24
    a >= 224 // multicast 224/4, reserved 240/4, broadcast 255.255.255.255
  );
}

/** The eight 16-bit groups of a compressed IPv6 address (as a WHATWG URL writes it), or undefined. */
function ipv6Hextets(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const read = (part: string | undefined): number[] | undefined => {
    if (!part) return [];
    const groups = part.split(':').map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16) : Number.NaN));
    return groups.some(Number.isNaN) ? undefined : groups;
  };
  const head = read(halves[0]);
  const tail = read(halves[1]);
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function isInternalIpv6(h: number[]): boolean {
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0] = h;
  const embedded = (high: number, low: number) => isInternalIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeroPrefix = h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0;
  if (zeroPrefix && h4 === 0 && (h5 === 0 || h5 === 0xffff)) return embedded(h6, h7); // ::/128, ::1, IPv4-compatible ::/96, IPv4-mapped ::ffff:0:0/96
  if (zeroPrefix && h4 === 0xffff && h5 === 0) return embedded(h6, h7); // IPv4-translated ::ffff:0:0:0/96 (SIIT)
  if (zeroPrefix) return true; // the rest of ::/64: no public address lives there
  if (h0 === 0x64 && h1 === 0xff9b) return h2 !== 0 || h3 !== 0 || h4 !== 0 || h5 !== 0 || embedded(h6, h7); // NAT64 64:ff9b::/96 (local-use 64:ff9b:1::/48 too)
  if (h0 === 0x2002) return embedded(h1, h2); // 6to4 2002::/16
  if (h0 === 0x2001 && h1 === 0) return embedded(~h6 & 0xffff, ~h7 & 0xffff); // Teredo 2001::/32: its client address
  return (
    (h0 === 0x100 && h1 === 0 && h2 === 0 && h3 === 0) || // discard-only 100::/64
    (h0 === 0x2001 && h1 < 0x200) || // IETF protocol assignments 2001::/23 (benchmarking 2001:2::/48, ORCHID...)
    (h0 === 0x2001 && h1 === 0xdb8) || // documentation 2001:db8::/32
    (h0 === 0x3fff && h1 < 0x1000) || // documentation 3fff::/20
    (h0 & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (h0 & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (h0 & 0xffc0) === 0xfec0 || // site-local fec0::/10 (deprecated)
    (h0 & 0xff00) === 0xff00 // multicast ff00::/8
  );
}
