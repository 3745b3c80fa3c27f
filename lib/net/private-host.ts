// Hosts a crawl must not wander into unless a seed names them: this machine, the user's network, the
// carrier's NAT. The crawler runs inside the user's browser, behind their firewall and with their cookies,
// so a public page linking to http://192.168.1.1/ or http://localhost:8080/admin would otherwise have the
// crawler make those requests for it.
//
// The check reads the URL's hostname only. An extension has no DNS lookup it can make before a request
// (Chrome offers none; the request itself resolves), so a public name that resolves to a private address
// (DNS rebinding, intranet names) cannot be seen here.

/**
 * IPv4 in WHATWG's serialization: the URL parser rewrites every notation it accepts (`2130706433`,
 * `0x7f.1`, `0177.0.0.1`, `127.1`) as dotted decimal, so one pattern sees them all.
 */
function ipv4(hostname: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  return m ? m.slice(1).map(Number) : null;
}

function privateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network", 0.0.0.0 reaches the local machine
    a === 10 || // RFC 1918
    a === 127 || // loopback
    (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT, RFC 6598
    (a === 169 && b === 254) || // link-local (cloud metadata services live here)
    (a === 172 && b! >= 16 && b! <= 31) || // RFC 1918
    (a === 192 && b === 168) // RFC 1918
  );
}

/** The eight 16-bit groups of a bracketed IPv6 hostname as WHATWG serializes it (hex only, `::` compressed). */
function ipv6(hostname: string): number[] | null {
  if (!hostname.startsWith('[') || !hostname.endsWith(']')) return null;
  const [head, tail, extra] = hostname.slice(1, -1).split('::');
  if (extra !== undefined) return null;
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = groups(head), t = groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : null;
}

function privateIpv6(g: number[]): boolean {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded = () => privateIpv4([g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff]);
  if (zeros(7) && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  if (zeros(5) && g[5] === 0xffff) return embedded(); // IPv4-mapped ::ffff:a.b.c.d
  if (zeros(6)) return embedded(); // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded(); // NAT64, RFC 6052
  const first = g[0]!;
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xffc0) === 0xfec0 // site-local fec0::/10 (deprecated, still private)
  );
}

/** True for loopback, private, link-local, CGNAT and unspecified IP literals, and for `localhost` names. */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true; // RFC 6761: always loopback
  const v4 = ipv4(h);
  if (v4) return privateIpv4(v4);
  const v6 = ipv6(h);
  return v6 ? privateIpv6(v6) : false;
}
