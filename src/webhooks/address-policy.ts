import ipaddr from 'ipaddr.js';

// Beyond what ipaddr.js already classes as non-unicast: documentation, benchmarking and protocol ranges.
const EXTRA_REFUSED_CIDRS = [
  '0.0.0.0/8',
  '100.64.0.0/10',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '240.0.0.0/4',
  '2001:db8::/32',
  // IPv4-compatible IPv6 (deprecated by RFC 4291): ::127.0.0.1 may still reach 127.0.0.1 through a stack or a
  // gateway that maps it; nothing legitimate lives there.
  '::/96',
].map((cidr) => ipaddr.parseCIDR(cidr));

/**
 * True for every address a webhook must never reach: loopback, private, link-local (cloud metadata), shared,
 * multicast, unspecified, reserved and documentation ranges, and IPv6 forms that embed such an IPv4 address.
 */
export function isRefusedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(hexTail(address));
  if (parsed.kind() === 'ipv6') {
    const embedded = embeddedIpv4(parsed as ipaddr.IPv6);
    if (embedded) parsed = embedded;
  }
  if (parsed.range() !== 'unicast') return true;
  return EXTRA_REFUSED_CIDRS.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

/**
 * An IPv6 text with a dotted IPv4 tail written in hex (`::8.8.8.8` as `::808:808`): ipaddr.js reads every
 * `::a.b.c.d` as the IPv4-mapped `::ffff:a.b.c.d`, which would let an IPv4-compatible address through.
 */
function hexTail(address: string): string {
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (!dotted || !ipaddr.IPv4.isValidFourPartDecimal(dotted[2])) return address;
  const [a, b, c, d] = ipaddr.IPv4.parse(dotted[2]).octets;
  return `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** The IPv4 address inside ::ffff:a.b.c.d, 64:ff9b::a.b.c.d (NAT64) or 2002:aabb:ccdd:: (6to4). */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const parts = address.parts;
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'rfc6052':
      return fromWords(parts[6], parts[7]);
    case '6to4':
      return fromWords(parts[1], parts[2]);
    default:
      return undefined;
  }
}
