/** The one check before any order leaves (src/bot/engine/send-check.ts), in the order it is made. */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { WalletSendCheck } from "../../../src/bot/engine/send-check.js";
import type { WalletRisk } from "../../../src/bot/engine/wallet-types.js";

function check(o: { core?: boolean; hook?: boolean; market?: { ok: true } | { ok: false; reason: string } } = {}) {
  const clock = new VirtualClock(1_000_000);
  const asked: string[] = [];
  const risk = {
    core: { allowPlace: (_w: string, name: string, m: string) => (asked.push(`core ${name} ${m}`), o.core ?? true) },
    hook: o.hook === undefined ? undefined : { reviewPlan: (p: unknown) => p, allowPlace: () => o.hook },
  } as unknown as WalletRisk;
  const registry = { maySend: (_s: string, postOnly: boolean, index?: number) => (asked.push(`market ${postOnly} ${index}`), o.market ?? { ok: true as const }) };
  const c = new WalletSendCheck({ clock, risk, registry: registry as never, wallet: "0xw", name: "maker-a", index: 3 });
  return { c, clock, asked };
}

describe("WalletSendCheck", () => {
  it("refuses before quoting is on and during an onboarding pause, without asking risk or the market", () => {
    const { c, clock, asked } = check();
    expect(c.mayPlace("M", true)).toEqual({ ok: false, reason: "not_quoting" });
    c.on = true;
    c.pausedUntilMs = clock.now() + 1;
    expect(c.mayPlace("M", true)).toEqual({ ok: false, reason: "not_quoting" });
    expect(asked).toEqual([]);
    c.pausedUntilMs = clock.now();
    expect(c.mayPlace("M", true)).toEqual({ ok: true });
    expect(asked).toEqual(["core maker-a M", "market true 3"]);
  });

  it("refuses under a halt of the core risk or of the extra hook", () => {
    for (const o of [{ core: false }, { hook: false }]) {
      const { c } = check(o);
      c.on = true;
      expect(c.mayPlace("M", false)).toEqual({ ok: false, reason: "risk_halt" });
    }
  });

  it("passes on the market's verdict (phase, pull before close, post-only in pre-market)", () => {
    const { c } = check({ market: { ok: false, reason: "post_only_required" } });
    c.on = true;
    expect(c.mayPlace("M", false)).toEqual({ ok: false, reason: "post_only_required" });
  });
});
