/**
 * What the engine tells the outside world: one event stream for metrics (src/metrics), the risk
 * layer (src/bot/risk) and tests. Events are plain data, emitted synchronously where they happen;
 * an observer must not throw (a throw is caught and logged, never allowed to break a cycle) and
 * must not do I/O inline. The default observer does nothing.
 */
import type { Side } from "../core/amounts.js";
import type { Micros } from "../core/money.js";
import type { HandlingClass } from "../wire/index.js";
import type { Fill } from "./fills/fill-ledger.js";
import type { MarketPhase } from "./quote/quotes.js";

export type StreamState = "connected" | "subscribed" | "disconnected" | "reconnecting";
export type WalletState = "starting" | "onboarding" | "ready" | "stopping" | "stopped" | "abandoned";
export type CycleTrigger = "book" | "timer" | "phase" | "fill" | "order" | "market" | "startup" | "stale" | "halt";

export type EngineEvent =
  | {
      type: "order_placed";
      wallet: string;
      marketId: string;
      clientOrderId: string;
      orderId: string;
      outcome: number;
      side: Side;
      price: Micros;
      size: Micros;
      postOnly: boolean;
      /** Placement status: OPEN, PARTIAL or FILLED. */
      status: string;
    }
  | {
      type: "order_cancelled";
      wallet: string;
      marketId: string;
      clientOrderId: string;
      orderId: string;
      /** CANCELLED / FILLED (final), or pending (recorded, repeated later). */
      result: "CANCELLED" | "FILLED" | "pending";
    }
  | { type: "order_rejected"; wallet: string; marketId: string; clientOrderId: string; code: string; handling: HandlingClass }
  /** A placement whose outcome is unknown (resolved later by lookup). */
  | { type: "order_unknown"; wallet: string; marketId: string; clientOrderId: string; code: string }
  | { type: "fill"; wallet: string; fill: Fill }
  /** A live markout of one of our fills (quote/adverse/markout-tracker.ts): signed, micros per share, positive is good. */
  | { type: "markout"; wallet: string; marketId: string; side: Side; horizonMs: number; perShare: Micros }
  /** A (wallet, market)'s adverse-selection state changed (quote/adverse/adverse-book.ts): sides not normal, jump cooling. */
  | { type: "adverse_state"; wallet: string; marketId: string; sides: readonly { outcome: number; side: Side; level: "widen" | "pull" }[]; jumpCoolingUntilMs: number | null }
  | { type: "quotes_live"; wallet: string; marketId: string; count: number }
  | { type: "stream_state"; wallet: string; state: StreamState; at: number }
  | {
      type: "drift";
      wallet: string;
      /** positions/cash: inventory vs portfolio; orders: tracker vs open-order walk; fills: ledger vs trades. */
      kind: "positions" | "cash" | "orders" | "fills";
      count: number;
    }
  | { type: "unknown_orders"; wallet: string; count: number }
  /** One user-stream message (order frames, pings): its serverTs and our receive time. */
  | { type: "stream_frame"; wallet: string; serverTs: number; at: number }
  /** An open-order walk and trade pull of the wallet completed (fill-sync.ts). */
  | { type: "synced"; wallet: string; reason: string; at: number }
  /**
   * Inventory against the platform's positions and balances, after a re-check (a difference
   * must survive a trade pull): drifted positions and cash records.
   */
  | { type: "reconciliation"; wallet: string; positions: number; cash: number; at: number }
  /** A risk halt raised or cleared (src/bot/risk): scope target is a wallet name, a symbol or "all". */
  | {
      type: "halt";
      action: "raised" | "cleared";
      scope: "global" | "wallet" | "market";
      target: string;
      reason: string;
      detail: string;
      by?: "rule" | "operator";
      at: number;
    }
  | {
      type: "cycle";
      wallet: string;
      marketId: string;
      trigger: CycleTrigger;
      latencyMs: number;
      cancels: number;
      places: number;
      /** Cancels and places the rate budget pushed to a later cycle. */
      deferredByBudget: number;
      /** Quotes each quote control changed this cycle, by control name (CycleWhy.controls); absent: none changed. */
      controls?: ReadonlyMap<string, number>;
    }
  | { type: "market_phase"; marketId: string; phase: MarketPhase; reason: string }
  | { type: "wallet_state"; wallet: string; state: WalletState }
  /** Auto-merge (engine/auto-merge-runner.ts): a YES+NO merge sent, confirmed by the platform, or failed (and unlocked). `amount` in micro-shares. */
  | { type: "vault_merge"; wallet: string; marketId: string; result: "started" | "confirmed" | "failed"; amount: bigint }
  /** The tracker refused or flagged an event (impossible, conflict, ...). */
  | { type: "tracker_anomaly"; wallet: string; outcome: string; event: string; message: string | undefined };

export type EngineEventType = EngineEvent["type"];

export interface EngineObserver {
  onEvent(event: EngineEvent): void;
}

export const NOOP_OBSERVER: EngineObserver = { onEvent: () => undefined };

/** Fan one event out to several observers; a throwing observer does not stop the others. */
export function combineObservers(observers: readonly EngineObserver[], onError?: (e: unknown) => void): EngineObserver {
  const list = observers.filter((o) => o !== NOOP_OBSERVER);
  if (list.length === 0) return NOOP_OBSERVER;
  return {
    onEvent(event) {
      for (const o of list) {
        try {
          o.onEvent(event);
        } catch (e) {
          onError?.(e);
        }
      }
    },
  };
}

/** Keeps every event (tests, the demo's status line). */
export class RecordingObserver implements EngineObserver {
  readonly events: EngineEvent[] = [];
  onEvent(event: EngineEvent): void {
    this.events.push(event);
  }
  of<T extends EngineEventType>(type: T): Extract<EngineEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
  }
}
