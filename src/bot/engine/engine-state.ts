/**
 * The engine's state as the metrics read it at scrape time: live quotes per side, unknown
 * orders, positions, PnL per (wallet, market) and daily PnL per wallet. Wallets by name.
 */
import type { Micros } from "../../core/money.js";
import type { EngineStateSource } from "../../metrics/scrape-sources.js";
import type { Inventory, Marks } from "../fills/inventory.js";
import type { WalletRunner } from "./wallet-runner.js";

export interface EngineStateParts {
  runners: readonly WalletRunner[];
  inventory: Inventory;
  marks: () => Marks;
  /** Daily PnL per wallet name (risk-observations.ts). */
  dailyPnl: () => ReadonlyMap<string, Micros>;
}

export function engineStateSource(p: EngineStateParts): EngineStateSource {
  return {
    *liveQuotes() {
      for (const r of p.runners) {
        for (const market of r.marketsToCycle()) {
          let buy = 0;
          let sell = 0;
          for (const o of r.tracker.liveOrders(market)) {
            if (o.state !== "open" && o.state !== "partial") continue;
            if (o.side === "BUY") buy += 1;
            else sell += 1;
          }
          yield { wallet: r.name, market, buy, sell };
        }
      }
    },
    *unknownOrders() {
      for (const r of p.runners) yield { wallet: r.name, count: r.tracker.unknownOrders().length };
    },
    *positions() {
      for (const r of p.runners) {
        for (const x of p.inventory.positions(r.wallet)) if (x.qty !== 0n) yield { wallet: r.name, market: x.marketId, outcome: x.outcome, qty: x.qty };
      }
    },
    *pnl() {
      const marks = p.marks();
      for (const r of p.runners) {
        const markets = new Set(p.inventory.positions(r.wallet).map((x) => x.marketId));
        for (const market of markets) {
          const s = p.inventory.pnl(r.wallet, marks, market);
          yield { wallet: r.name, market, realised: s.realised, unrealised: s.unrealised };
        }
      }
    },
    *dailyPnl() {
      for (const [wallet, pnl] of p.dailyPnl()) yield { wallet, pnl };
    },
  };
}
