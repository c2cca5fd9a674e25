/**
 * Operations logging: every log line about an order action (placed, cancelled, cancel pending,
 * rejected, not placed, outcome unknown) is one JSON object carrying the wallet, the market, the
 * clientOrderId and the order id (null before the platform gave one), and no log line carries a
 * secret (API key, wallet private keys, admin token).
 */
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, API_KEY, jsonError, run, startOps, walletAddress, walletKey, type OpsHarness } from "./harness.js";

let ops: OpsHarness | undefined;
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
});

const ORDER_ACTIONS = ["order placed", "order cancelled", "cancel pending", "order rejected", "order not placed", "placement outcome unknown: will look it up"];

describe("order action logs", () => {
  it("carry wallet, market, clientOrderId and orderId; no line carries a secret", async () => {
    const o = (ops = await startOps(
      { wallets: 2, markets: [{ symbol: "A", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 }, { symbol: "B", opensAt: "-10m", closesAt: "+1d" }] },
      { wallets: 2, slugs: ["A", "B"] },
      {},
      "debug",
    ));
    await run(o.h.clock, 15_000);
    // A few refused placements too.
    o.wire.intercept = (req, wallet) => (wallet === walletAddress(1) && req.path.startsWith("/api/orders/place") ? jsonError(400, "invalid_amounts", "refused") : undefined);
    await run(o.h.clock, 10_000);
    o.wire.intercept = undefined;
    await o.stop();
    ops = undefined;

    const actions = o.logs.lines.filter((l) => ORDER_ACTIONS.includes(String(l["msg"])));
    const seen = new Set(actions.map((l) => l["msg"]));
    expect(seen).toContain("order placed");
    expect(seen).toContain("order cancelled");
    expect(seen).toContain("order not placed");
    for (const l of actions) {
      expect(l["wallet"], JSON.stringify(l)).toMatch(/^0x[0-9a-f]{40}$/);
      expect(l["walletName"]).toMatch(/^w[01]$/);
      expect(["A", "B"]).toContain(l["market"]);
      expect(l["clientOrderId"]).toMatch(/^ops-/);
      expect("orderId" in l).toBe(true);
    }
    expect(actions.filter((l) => l["msg"] === "order placed").every((l) => typeof l["orderId"] === "string")).toBe(true);
    const all = o.logs.raw.join("");
    for (const secret of [API_KEY, ADMIN_TOKEN, walletKey(0), walletKey(1), walletKey(0).slice(2), walletKey(1).slice(2)]) expect(all).not.toContain(secret);
  });
});
