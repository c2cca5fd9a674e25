/**
 * Bucket subjects (spec 8.1): the caller's IP (IPv4 as is, IPv6 by its /64 prefix) and the effective wallet.
 *
 * IPv6 keys are canonical so that every spelling of one /64 counts together: `2001:DB8:0:0:1::5`,
 * `2001:db8::1:0:0:5` and `[2001:db8:0:0:abcd::1]:443` all key to `2001:db8:0:0::/64`. An IPv4-mapped
 * address (`::ffff:1.2.3.4`, what a dual-stack socket reports for an IPv4 peer) is that IPv4 address.
 * Zone ids (`fe80::1%eth0`) are dropped. Input that is not an address keys to `invalid:<text>` so that it
 * still counts somewhere instead of escaping the limit.
 */

export type ParsedIp = { v: 4; text: string } | { v: 6; groups: readonly number[] };

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseV4(s: string): number[] | null {
  const m = V4.exec(s);
  if (!m) return null;
  const bytes = m.slice(1, 5).map((x) => Number(x));
  if (bytes.some((b) => b > 255)) return null;
  // Leading zeros are ambiguous (octal in some parsers): refuse rather than guess.
  if (m.slice(1, 5).some((x) => x.length > 1 && x.startsWith("0"))) return null;
  return bytes;
}

function parseV6(s: string): number[] | null {
  let text = s;
  // An embedded dotted IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) stands for the last two groups.
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (lastColon >= 0 && text.slice(lastColon + 1).includes(".")) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    const head = text.slice(0, lastColon + 1);
    text = head.endsWith("::") ? head : head.slice(0, -1);
  }
  const dbl = text.indexOf("::");
  if (dbl !== text.lastIndexOf("::")) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    for (const g of part.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const want = 8 - tail.length;
  let groups: number[];
  if (dbl >= 0) {
    const head = parseGroups(text.slice(0, dbl));
    const rest = parseGroups(text.slice(dbl + 2));
    if (!head || !rest || head.length + rest.length >= want) return null;
    groups = [...head, ...new Array<number>(want - head.length - rest.length).fill(0), ...rest];
  } else {
    const all = parseGroups(text);
    if (!all || all.length !== want) return null;
    groups = all;
  }
  return [...groups, ...tail];
}

/** Strip brackets, a port and a zone id; null when the text is no IP address. */
export function parseIp(input: string): ParsedIp | null {
  let s = input.trim();
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    if (end < 0) return null;
    s = s.slice(1, end);
  } else if (/^[\d.]+:\d+$/.test(s)) {
    s = s.slice(0, s.indexOf(":")); // IPv4 with a port
  }
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const v4 = parseV4(s);
  if (v4) return { v: 4, text: v4.join(".") };
  if (!s.includes(":")) return null;
  const groups = parseV6(s);
  if (!groups) return null;
  // IPv4-mapped (::ffff:a.b.c.d) is an IPv4 peer seen through a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const a = groups[6]!;
    const b = groups[7]!;
    return { v: 4, text: [a >> 8, a & 0xff, b >> 8, b & 0xff].join(".") };
  }
  return { v: 6, groups };
}

/** The ip-bucket subject: IPv4 unchanged, IPv6 as its canonical /64 prefix. Idempotent on its own output. */
export function ipKey(address: string): string {
  const s = address.trim();
  if (s.endsWith("::/64")) {
    const again = parseIp(s.slice(0, -3));
    if (again?.v === 6) return v6Prefix(again.groups);
  }
  const p = parseIp(s);
  if (!p) return `invalid:${s.toLowerCase()}`;
  return p.v === 4 ? p.text : v6Prefix(p.groups);
}

function v6Prefix(groups: readonly number[]): string {
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/**
 * The client IP for the ip bucket, keyed (see ipKey).
 *
 * Trust: the ingress appends the address it saw to `X-Forwarded-For`; everything to the left of its entry
 * was written by the client and can be forged. So the trusted entry is the `trustedHops`-th from the RIGHT
 * (1 = the last entry, one trusted ingress hop, spec 8.1). When the header is absent, shorter than that, or
 * the entry is not an address, the socket peer address is used instead (a direct connection: no ingress).
 * Several header instances are read as one comma-separated list, in order.
 */
export function clientIpFrom(
  forwardedFor: string | readonly string[] | undefined,
  socketAddress: string | undefined,
  trustedHops = 1,
): string {
  const header = typeof forwardedFor === "string" ? forwardedFor : (forwardedFor ?? []).join(",");
  const entries = header
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  const hops = Math.max(1, Math.floor(trustedHops));
  const entry = entries.length >= hops ? entries[entries.length - hops] : undefined;
  if (entry !== undefined && parseIp(entry)) return ipKey(entry);
  return ipKey(socketAddress ?? "unknown");
}

/** The wallet-bucket subject: the effective wallet, lower-cased (5.3). */
export function walletKey(wallet: string): string {
  return wallet.trim().toLowerCase();
}
