/**
 * The shard.lease series (src/metrics/lease-metrics.ts), read at scrape time: one state per
 * wallet set to 1 and the other three 0, the renewal age, the losses; labelled by the configured
 * wallet name (an unknown wallet is "other"); nothing before the engine attaches its leases.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { DaemonMetrics } from "../../src/metrics/index.js";
import type { LeaseMetricRow } from "../../src/metrics/lease-metrics.js";
import { sample } from "./samples.js";

const A = "0xaaaa000000000000000000000000000000000001";
const B = "0xbbbb000000000000000000000000000000000002";

describe("mm_shard_lease_* series", () => {
  it("state one-hot per wallet, renewal age, losses; absent until followed and for a wallet never held", async () => {
    const metrics = new DaemonMetrics({ clock: new VirtualClock(0), wallets: [{ name: "alpha", address: A }, { name: "beta", address: B }], processMetrics: false });
    expect(await metrics.scrape()).not.toMatch(/^mm_shard_lease_/m);
    let rows: LeaseMetricRow[] = [
      { wallet: A, state: "held", renewAgeSec: 1.5, losses: 0 },
      { wallet: B, state: "waiting", renewAgeSec: undefined, losses: 0 },
    ];
    metrics.lease.follow(() => rows);
    let text = await metrics.scrape();
    expect(sample(text, 'mm_shard_lease_state{wallet="alpha",state="held"}')).toBe(1);
    for (const s of ["waiting", "lost", "released"]) expect(sample(text, `mm_shard_lease_state{wallet="alpha",state="${s}"}`)).toBe(0);
    expect(sample(text, 'mm_shard_lease_state{wallet="beta",state="waiting"}')).toBe(1);
    expect(sample(text, 'mm_shard_lease_renew_age_seconds{wallet="alpha"}')).toBe(1.5);
    expect(sample(text, 'mm_shard_lease_renew_age_seconds{wallet="beta"}')).toBeUndefined();
    expect(sample(text, 'mm_shard_lease_losses_total{wallet="alpha"}')).toBe(0);

    rows = [
      { wallet: A, state: "lost", renewAgeSec: 14, losses: 1 },
      { wallet: "0xcccc000000000000000000000000000000000003", state: "held", renewAgeSec: 2, losses: 3 },
    ];
    text = await metrics.scrape();
    expect(sample(text, 'mm_shard_lease_state{wallet="alpha",state="lost"}')).toBe(1);
    expect(sample(text, 'mm_shard_lease_state{wallet="alpha",state="held"}')).toBe(0);
    expect(sample(text, 'mm_shard_lease_losses_total{wallet="alpha"}')).toBe(1);
    // A wallet gone from the source leaves no series; an unknown one is "other", never its address.
    expect(text).not.toMatch(/wallet="beta"/);
    expect(sample(text, 'mm_shard_lease_state{wallet="other",state="held"}')).toBe(1);
    expect(sample(text, 'mm_shard_lease_losses_total{wallet="other"}')).toBe(3);
    expect(text).not.toContain("0xcccc");
  });
});
