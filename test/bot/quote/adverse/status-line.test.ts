/** The adverse-selection state in the status line (src/bot/engine/status.ts): named only while a control acts. */
import { describe, expect, it } from "vitest";
import { formatStatusLine, type DaemonStatus } from "../../../../src/bot/engine/status.js";
import type { WalletStatus } from "../../../../src/bot/engine/wallet-types.js";
import { AdverseBook } from "../../../../src/bot/quote/adverse/adverse-book.js";

const wallet = (over: Partial<WalletStatus> = {}): WalletStatus => ({ name: "w", wallet: "0xw", state: "ready", vault: undefined, liveOrders: 0, unknownOrders: 0, streamSubscribed: true, markets: [], ...over });
const status = (wallets: WalletStatus[]): DaemonStatus => ({
  at: 0,
  running: true,
  markets: { selected: 1, quoted: 1 },
  wallets,
  openOrders: 0,
  unknownOrders: 0,
  fills: 0,
  positions: 0,
  sharesHeld: 0n,
  pnl: { realised: 0n, unrealised: 0n, fees: 0n, net: 0n },
  halts: [],
});

describe("status line: adverse selection", () => {
  it("absent while nothing acts; summed over wallets before the halts when something does", () => {
    expect(formatStatusLine(status([wallet()]))).not.toContain("adverse");
    const line = formatStatusLine(status([wallet({ adverse: { widen: 1, pull: 0, cooling: 1 } }), wallet({ adverse: { widen: 0, pull: 2, cooling: 0 } })]));
    expect(line).toMatch(/\| adverse 1 widened, 2 pulled, 1 cooling \| halts none$/);
  });

  it("AdverseBook.counts: the sides widened and pulled and the markets cooling now", () => {
    const b = new AdverseBook({
      markouts: false,
      maxPending: 100,
      toxicity: { horizonMs: 1_000, fills: 4, windowMs: 60_000, minFills: 1, widenEnterMicros: 1_000n, widenExitMicros: 500n, pullEnterMicros: 3_000n, coolingMs: 10_000 },
      jump: { thresholdMicros: 10_000n, windowMs: 5_000, coolingMs: 20_000 },
    });
    b.onMid("M", 0, 500_000n, 0);
    b.onFill({ wallet: "w", market: "M", outcome: 0, side: "BUY", price: 500_000n, qty: 1_000_000n, role: "maker", ts: 100 });
    b.onMid("M", 0, 498_000n, 500);
    b.onMid("M", 0, 498_000n, 1_100);
    expect(b.counts(1_100)).toEqual({ widen: 1, pull: 0, cooling: 0 });
    b.onMid("M", 0, 520_000n, 2_000);
    expect(b.counts(2_000)).toEqual({ widen: 1, pull: 0, cooling: 1 });
    // the jump's cooling is over; the side stays widened while its fill is in the window (hysteresis)
    expect(b.counts(22_000)).toEqual({ widen: 1, pull: 0, cooling: 0 });
    expect(b.counts(60_101)).toEqual({ widen: 0, pull: 0, cooling: 0 });
  });
});
