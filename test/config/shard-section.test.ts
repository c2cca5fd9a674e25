import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/index.js";
import { applyShard, ordinalFromHostname, shardOf, shardInstanceId } from "../../src/config/shard-section.js";

const SIM = "mode: simulator\nstrategy:\n  name: ladder\n";
const parse = (extra: string, env: Record<string, string> = {}): ReturnType<typeof parseConfig> => parseConfig(SIM + extra, "t.yaml", env);
const problems = (extra: string, env: Record<string, string> = {}): string => {
  try {
    parse(extra, env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return "";
};

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString("hex")}`);
const addresses = fc.uniqueArray(address, { minLength: 1, maxLength: 60 });

describe("rendezvous sharding of wallets", () => {
  it("every wallet has exactly one owner: the shards are disjoint and cover the list", () => {
    fc.assert(
      fc.property(addresses, fc.integer({ min: 1, max: 12 }), (list, count) => {
        const owners = list.map((a) => shardOf(a, count));
        for (const o of owners) expect(o >= 0 && o < count).toBe(true);
        const perShard = Array.from({ length: count }, (_, s) => list.filter((a) => shardOf(a, count) === s));
        expect(perShard.flat().sort()).toEqual([...list].sort());
      }),
    );
  });

  it("adding a replica moves only wallets to the new one, none between the old ones (minimal movement)", () => {
    fc.assert(
      fc.property(addresses, fc.integer({ min: 1, max: 12 }), (list, count) => {
        for (const a of list) {
          const before = shardOf(a, count);
          const after = shardOf(a, count + 1);
          expect(after === before || after === count).toBe(true);
        }
      }),
    );
  });

  it("moves about 1/(n+1) of the wallets when n grows by one, and spreads them evenly", () => {
    const list = Array.from({ length: 2000 }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`);
    const moved = list.filter((a) => shardOf(a, 4) !== shardOf(a, 5)).length;
    expect(moved / list.length).toBeGreaterThan(0.15);
    expect(moved / list.length).toBeLessThan(0.25);
    const sizes = [0, 1, 2, 3, 4].map((s) => list.filter((a) => shardOf(a, 5) === s).length);
    for (const n of sizes) expect(Math.abs(n - 400)).toBeLessThan(80);
  });

  it("is case-blind on the address and deterministic", () => {
    const a = "0xAbCdEf0123456789abcdef0123456789ABCDEF01";
    expect(shardOf(a, 7)).toBe(shardOf(a.toLowerCase(), 7));
    expect(shardOf(a, 7)).toBe(shardOf(a, 7));
  });
});

describe("shard section", () => {
  const wallets = "wallets:\n" + Array.from({ length: 8 }, (_, i) => `  - name: w${i}\n`).join("");

  it("absent: no sharding, the config unchanged", () => {
    const cfg = parse(wallets);
    expect(cfg.shard).toBeUndefined();
    expect(applyShard(cfg)).toBe(cfg);
  });

  it("each replica keeps its wallets under its own instance id; together they hold each wallet once", () => {
    const all = parse(wallets).wallets.map((w) => w.name);
    const seen: string[] = [];
    for (let index = 0; index < 3; index++) {
      const cfg = applyShard(parse(`${wallets}shard:\n  index: ${index}\n  count: 3\n`));
      expect(cfg.instance.id).toBe(shardInstanceId("mm1", index));
      seen.push(...cfg.wallets.map((w) => w.name));
    }
    expect(seen.sort()).toEqual([...all].sort());
  });

  it("MM_SHARD_INDEX / MM_SHARD_COUNT override the file; ordinal reads the pod name", () => {
    expect(parse(`${wallets}shard:\n  index: 0\n  count: 2\n`, { MM_SHARD_INDEX: "1", MM_SHARD_COUNT: "4" }).shard).toEqual({ index: 1, count: 4 });
    expect(parse(wallets, { MM_SHARD_INDEX: "ordinal", MM_SHARD_COUNT: "3", HOSTNAME: "mm-2" }).shard).toEqual({ index: 2, count: 3 });
    expect(parse(`${wallets}shard:\n  index: ordinal\n  count: 5\n`, { HOSTNAME: "pm-market-maker-4" }).shard).toEqual({ index: 4, count: 5 });
    expect(ordinalFromHostname("mm-12")).toBe(12);
  });

  it("refuses what cannot be a shard, naming the key and the source", () => {
    expect(problems(`${wallets}shard:\n  index: 3\n  count: 3\n`)).toMatch(/shard\.index: index 3 is not below count 3/);
    expect(problems(`${wallets}shard:\n  count: 3\n`)).toMatch(/shard\.index: index is required/);
    expect(problems(`${wallets}shard:\n  index: -1\n  count: 3\n`)).toMatch(/shard\.index: index: expected an integer >= 0 or "ordinal"/);
    expect(problems(`${wallets}shard:\n  index: 0\n  count: 0\n`)).toMatch(/shard\.count: count: expected an integer in 1\.\.50/);
    expect(problems(`${wallets}shard:\n  index: 0\n  count: 2\n  size: 1\n`)).toMatch(/shard\.size: unknown key/);
    expect(problems(wallets, { MM_SHARD_COUNT: "two", MM_SHARD_INDEX: "0" })).toMatch(/MM_SHARD_COUNT: expected an integer in 1\.\.50, received "two"/);
    expect(problems(wallets, { MM_SHARD_INDEX: "ordinal", MM_SHARD_COUNT: "2", HOSTNAME: "laptop" })).toMatch(/HOSTNAME "laptop" does not end in -<number>/);
    expect(problems(wallets, { MM_SHARD_INDEX: "0" })).toMatch(/count is required \(or set MM_SHARD_COUNT\)/);
    expect(problems(`instance:\n  id: abcdefghijklmn\n${wallets}shard:\n  index: 0\n  count: 12\n`)).toMatch(/instance\.id: with shard\.count 12, instance\.id must be at most 12 characters/);
  });

  it("platform.localAddress must be an IP address", () => {
    expect(parse(`platform:\n  localAddress: 127.0.0.2\n`).platform.localAddress).toBe("127.0.0.2");
    expect(parse(`platform:\n  localAddress: "::1"\n`).platform.localAddress).toBe("::1");
    expect(problems(`platform:\n  localAddress: eth0\n`)).toMatch(/platform\.localAddress: expected an IP address of this host/);
  });
});

describe("shard.lease", () => {
  it("is off unless given; given, the defaults are 15 s leases renewed every 5 s with a 2 s clock margin", () => {
    expect(parse("shard: { index: 0, count: 2 }\n").shard?.lease).toBeUndefined();
    expect(parse("shard: { index: 0, count: 2, lease: {} }\n").shard?.lease).toEqual({ namespace: undefined, durationSec: 15, renewSec: 5, skewMarginSec: 2 });
    expect(parse("shard: { index: 0, count: 2, lease: true }\n").shard?.lease).toEqual({ namespace: undefined, durationSec: 15, renewSec: 5, skewMarginSec: 2 });
    expect(parse("shard: { index: 0, count: 2, lease: { enabled: false } }\n").shard?.lease).toBeUndefined();
    expect(parse("shard: { index: 1, count: 2, lease: { namespace: mm-prod, durationSec: 30, renewSec: 10, skewMarginSec: 5 } }\n").shard?.lease).toEqual({
      namespace: "mm-prod",
      durationSec: 30,
      renewSec: 10,
      skewMarginSec: 5,
    });
  });

  it("refuses, by key and in one pass, what it cannot use", () => {
    const text = problems("shard: { index: 0, count: 2, lease: { namespace: Not_Valid, durationSec: 2, renewSec: 0, ttl: 3 } }\n");
    expect(text).toContain("shard.lease.namespace");
    expect(text).toContain("shard.lease.durationSec");
    expect(text).toContain("shard.lease.renewSec");
    expect(text).toMatch(/shard\.lease\.ttl.*unknown key/);
    expect(problems("shard: { index: 0, count: 2, lease: { durationSec: 15, renewSec: 7 } }\n")).toMatch(/shard\.lease\.renewSec.*2 x renewSec <= durationSec - skewMarginSec/);
    expect(problems("shard: { index: 0, count: 2, lease: 5 }\n")).toMatch(/shard\.lease.*expected a mapping/);
  });
});
