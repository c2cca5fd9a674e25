/**
 * The one check made just before any order of a wallet leaves (the executor asks it before each
 * batch is built, before each resend, and through the client's `stillWanted` before every request):
 * the wallet is quoting (start-up done, not stopping), not paused by an onboarding answer, no halt
 * covers it, and the market takes this order now (registry.maySend: phase, pull time before
 * closesAt, post-only in PRE_MARKET). The quote pump switches it on and off and sets the pause.
 */
import type { Clock } from "../../core/clock.js";
import type { MarketRegistry } from "../market/market-registry.js";
import type { PlaceVerdict, SendCheck } from "./executor.js";
import type { WalletRisk } from "./wallet-types.js";

export interface WalletSendCheckParts {
  clock: Clock;
  risk: WalletRisk;
  registry: Pick<MarketRegistry, "maySend">;
  /** Lower-cased address. */
  wallet: string;
  name: string;
  index: number;
}

export class WalletSendCheck implements SendCheck {
  /** Quoting is on: from the end of start-up until stop(). */
  on = false;
  /** Quoting paused until then (onboarding answers). */
  pausedUntilMs = 0;

  constructor(private readonly p: WalletSendCheckParts) {}

  mayPlace(symbol: string, postOnly: boolean): PlaceVerdict {
    const p = this.p;
    if (!this.on || p.clock.now() < this.pausedUntilMs) return { ok: false, reason: "not_quoting" };
    const { core, hook } = p.risk;
    if (!core.allowPlace(p.wallet, p.name, symbol) || hook?.allowPlace?.(p.wallet, p.name, symbol) === false) return { ok: false, reason: "risk_halt" };
    return p.registry.maySend(symbol, postOnly, p.index);
  }
}
