import { describe, expect, it } from "vitest";
import { clientIpFrom, ipKey, parseIp, walletKey } from "../../src/ratelimit/keys.js";

describe("ipKey", () => {
  it("keeps IPv4 unchanged", () => {
    expect(ipKey("203.0.113.7")).toBe("203.0.113.7");
    expect(ipKey(" 203.0.113.7 ")).toBe("203.0.113.7");
    expect(ipKey("203.0.113.7:51000")).toBe("203.0.113.7");
    expect(ipKey("203.0.113.8")).not.toBe(ipKey("203.0.113.7"));
  });

  it("groups IPv6 by /64: same prefix shares, different prefix does not", () => {
    const a = ipKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
    const b = ipKey("2001:db8:1:2::1");
    const c = ipKey("2001:db8:1:3::1");
    expect(a).toBe("2001:db8:1:2::/64");
    expect(b).toBe(a);
    expect(c).toBe("2001:db8:1:3::/64");
    expect(c).not.toBe(a);
  });

  it("canonicalises every spelling of one /64", () => {
    const forms = [
      "2001:0db8:0000:0000:0000:0000:0000:0001",
      "2001:DB8::1",
      "2001:db8:0:0::ffff",
      "2001:db8::",
      "[2001:db8::5]:8443",
      "[2001:db8::5]",
      "2001:db8:0:0:1::5",
      "2001:db8::1.2.3.4", // embedded dotted tail
    ];
    for (const f of forms) expect(ipKey(f), f).toBe("2001:db8:0:0::/64");
  });

  it("handles :: at either end and in the prefix", () => {
    expect(ipKey("::1")).toBe("0:0:0:0::/64");
    expect(ipKey("::")).toBe("0:0:0:0::/64");
    expect(ipKey("fe80::")).toBe("fe80:0:0:0::/64");
    expect(ipKey("1:2:3:4:5:6:7::")).toBe("1:2:3:4::/64");
    expect(ipKey("1::5:6:7:8")).toBe("1:0:0:0::/64");
    expect(ipKey("1:2:3::8")).toBe("1:2:3:0::/64");
    // `::` in the host half leaves the prefix as written
    expect(ipKey("2001:db8:ab:cd::")).toBe("2001:db8:ab:cd::/64");
  });

  it("treats IPv4-mapped IPv6 as IPv4", () => {
    expect(ipKey("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(ipKey("::FFFF:1.2.3.4")).toBe("1.2.3.4");
    expect(ipKey("0:0:0:0:0:ffff:0102:0304")).toBe("1.2.3.4");
    expect(ipKey("[::ffff:127.0.0.1]:3000")).toBe("127.0.0.1");
    // two mapped addresses are two IPv4 subjects, not one /64
    expect(ipKey("::ffff:1.2.3.5")).not.toBe(ipKey("::ffff:1.2.3.4"));
  });

  it("drops zone ids", () => {
    expect(ipKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(ipKey("fe80::abcd%25en0")).toBe("fe80:0:0:0::/64");
  });

  it("is idempotent on its own output", () => {
    for (const k of ["2001:db8:1:2::/64", "0:0:0:0::/64", "1.2.3.4"]) expect(ipKey(k)).toBe(k);
  });

  it("keys garbage apart instead of letting it through", () => {
    for (const bad of ["", "not-an-ip", "1.2.3", "256.1.1.1", "01.2.3.4", "1:2:3:4:5:6:7:8:9", "1::2::3", ":::"]) {
      expect(parseIp(bad), bad).toBeNull();
      expect(ipKey(bad).startsWith("invalid:"), bad).toBe(true);
    }
  });
});

describe("clientIpFrom", () => {
  it("trusts the entry appended by the ingress (the last one), not client-written ones", () => {
    expect(clientIpFrom("6.6.6.6, 198.51.100.9", "10.0.0.1")).toBe("198.51.100.9");
    expect(clientIpFrom("198.51.100.9", "10.0.0.1")).toBe("198.51.100.9");
  });
  it("counts trusted hops from the right", () => {
    expect(clientIpFrom("6.6.6.6, 198.51.100.9, 10.1.1.1", "10.0.0.1", 2)).toBe("198.51.100.9");
  });
  it("reads several header instances as one list", () => {
    expect(clientIpFrom(["6.6.6.6", "2001:db8:9:9::1"], "10.0.0.1")).toBe("2001:db8:9:9::/64");
  });
  it("falls back to the socket address without a usable header", () => {
    expect(clientIpFrom(undefined, "::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(clientIpFrom("", "::1")).toBe("0:0:0:0::/64");
    expect(clientIpFrom("garbage", "192.0.2.1")).toBe("192.0.2.1");
    expect(clientIpFrom("1.1.1.1", "192.0.2.1", 3)).toBe("192.0.2.1");
  });
});

describe("walletKey", () => {
  it("lower-cases the effective wallet", () => {
    expect(walletKey(" 0xAbCDef0000000000000000000000000000000001 ")).toBe(
      "0xabcdef0000000000000000000000000000000001",
    );
  });
});
