/**
 * The settlement watcher's overdue log line says what the platform showed: no payout at all, or
 * only part of it (fakes for the wallet's reads; the pure states are in test/bot/fills).
 */
import { describe, expect, it } from "vitest";
import type { WalletClient } from "../../../src/api/index.js";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import { SettlementWatcher } from "../../../src/bot/engine/settlement-watch.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros } from "../../../src/core/money.js";
import { createLogger } from "../../../src/log/index.js";
import { LogLines } from "../../ops/harness.js";

const W = "0x00000000000000000000000000000000000000aa";

async function overdueLine(paid: string | null): Promise<Record<string, unknown>> {
  const clock = new VirtualClock();
  const logs = new LogLines();
  const inventory = new Inventory();
  inventory.anchor(W, clock.now(), [{ marketId: "M", outcome: 0, qty: parseMicros("10"), avgPrice: parseMicros("0.5") }], parseMicros("100"));
  const at = new Date(clock.now()).toISOString();
  const api = {
    portfolio: {
      balanceEventsPage: () => Promise.resolve({ data: { events: paid === null ? [] : [{ kind: "payout", amount: paid, marketId: "M", createdAt: at }], nextCursor: null } }),
      positionsPage: () => Promise.resolve({ data: { positions: [{ marketId: "M", tokenId: "1", outcome: 0, quantity: "10", locked: "0", avgPrice: "0.5" }], nextCursor: null }, meta: {} }),
      balances: () => Promise.resolve({ data: { collateral: { total: "100", locked: "0", available: "100" } } }),
      autoRedeem: () => Promise.resolve({ data: {} }),
    },
  } as unknown as WalletClient;
  const watcher = new SettlementWatcher({
    clock,
    log: createLogger({ level: "info", clock }, logs),
    settings: { enabled: true, payoutTimeoutSec: 60, pollIntervalSec: 10 },
    inventory,
    wallets: () => [{ wallet: W, name: "w0" }],
    api: () => api,
    symbolOf: (id) => id,
    later: () => undefined,
    active: () => true,
  });
  watcher.onSettled("M", "resolved", [1n, 0n], 2, clock.now(), "uuid-M");
  inventory.resolve("M", [1n, 0n], clock.now());
  await clock.advance(61_000);
  await watcher.poll();
  const lines = logs.lines.filter((l) => String(l["msg"]).startsWith("settlement payout overdue"));
  expect(lines).toHaveLength(1);
  return lines[0] ?? {};
}

describe("SettlementWatcher: the overdue line", () => {
  it("nothing received: the platform shows no payout", async () => {
    expect(await overdueLine(null)).toMatchObject({ level: "error", msg: "settlement payout overdue: the platform shows no payout", expected: "10", received: "0" });
  });

  it("part received: says so, with the amount", async () => {
    expect(await overdueLine("4")).toMatchObject({ level: "error", msg: "settlement payout overdue: the platform shows only part of the payout", expected: "10", received: "4" });
  });
});
