/**
 * Small pieces between the risk facade and the daemon: a halt change as an EngineEvent, which
 * cycles a change must re-run, and the kill switch's report.
 */
import type { Logger } from "../../log/index.js";
import type { HaltChange, HaltScope } from "../risk/types.js";
import { scopeTarget } from "../risk/types.js";
import type { CoreRisk } from "../risk/core-risk.js";
import type { EngineEvent, EngineObserver } from "../observer.js";
import type { WalletRunner } from "./wallet-runner.js";

export function haltEvent(c: HaltChange): EngineEvent {
  const h = c.halt;
  return {
    type: "halt",
    action: c.type,
    scope: h.scope.kind,
    target: scopeTarget(h.scope),
    reason: h.reason,
    detail: h.detail,
    at: c.atMs,
    ...(c.type === "cleared" ? { by: c.by } : {}),
  };
}

/** Who must cycle again after a change of this scope: every wallet, one wallet (by name), or one market everywhere. */
export type Retrigger = { all: true } | { wallet: string } | { market: string };

export function retriggerOf(scope: HaltScope): Retrigger {
  if (scope.kind === "global") return { all: true };
  return scope.kind === "wallet" ? { wallet: scope.wallet } : { market: scope.market };
}

/** What the kill switch (signal or POST /admin/kill) did. */
export interface KillReport {
  changes: HaltChange[];
  /** Our live orders when the switch was thrown. */
  openOrdersBefore: number;
  /** Still live once the cycles it re-ran are done (cancels pending, orders not acknowledged yet). */
  openOrders: number;
}

export interface HaltControlParts {
  core: () => CoreRisk;
  runners: readonly WalletRunner[];
  observer: () => EngineObserver;
  log: Logger;
}

/** The daemon's side of halts: report each change, re-run the cycles it affects, the kill switch. */
export class HaltControl {
  constructor(private readonly p: HaltControlParts) {}

  /** Every raise and clear: an EngineEvent, and the affected cycles re-run (pull now, or quote again). */
  onChanges(changes: readonly HaltChange[]): void {
    for (const c of changes) {
      this.p.observer().onEvent(haltEvent(c));
      const t = retriggerOf(c.halt.scope);
      for (const r of this.p.runners) {
        if ("all" in t) r.triggerAll("halt");
        else if ("wallet" in t) {
          if (r.name === t.wallet) r.triggerAll("halt");
        } else r.trigger(t.market, "halt");
      }
    }
  }

  async kill(note: string): Promise<KillReport> {
    const openOrdersBefore = this.liveOrders();
    this.p.log.warn({ note, openOrders: openOrdersBefore }, "kill switch: cancelling every order, quoting stopped");
    const changes = this.p.core().kill(note);
    // Already killed: run the cycles again anyway (orders acknowledged since then go too).
    for (const r of this.p.runners) r.triggerAll("halt");
    await Promise.all(this.p.runners.map((r) => r.idle()));
    return { changes, openOrdersBefore, openOrders: this.liveOrders() };
  }

  resume(): HaltChange[] {
    this.p.log.warn("resume: clearing operator halts");
    return this.p.core().resume();
  }

  private liveOrders(): number {
    return this.p.runners.reduce((n, r) => n + r.status().liveOrders, 0);
  }
}
