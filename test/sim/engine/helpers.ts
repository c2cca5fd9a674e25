import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros } from "../../../src/core/money.js";
import { MatchingEngine, type EngineEvent, type EngineOptions, type PlaceRequest } from "../../../src/sim/engine/index.js";
import { checkInvariants } from "../../../src/sim/engine/invariants.js";

/** Decimal string -> micros. */
export const u = (s: string): bigint => parseMicros(s);

export const ALICE = "0x1111111111111111111111111111111111111111";
export const BOB = "0x2222222222222222222222222222222222222222";
export const CAROL = "0x3333333333333333333333333333333333333333";
export const DAVE = "0x4444444444444444444444444444444444444444";
/** Not funded by the fixture. */
export const EVE = "0x5555555555555555555555555555555555555555";

export interface Fixture {
  engine: MatchingEngine;
  clock: VirtualClock;
  events: EngineEvent[];
  place(wallet: string, req: Omit<PlaceRequest, "wallet" | "marketId"> & { marketId?: string }): ReturnType<MatchingEngine["place"]>;
  cash(wallet: string): bigint;
  locked(wallet: string): bigint;
  shares(wallet: string, outcome: number, marketId?: string): bigint;
  assertConsistent(): void;
}

/** An engine with a binary market "M" (fee `feeRateBps`) and funded wallets. */
export function fixture(opts: { feeRateBps?: number; outcomes?: number; deposit?: string; engine?: Partial<EngineOptions> } = {}): Fixture {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const events: EngineEvent[] = [];
  const engine = new MatchingEngine({ clock, onEvent: (e) => events.push(e), ...opts.engine });
  engine.addMarket({ id: "M", outcomeCount: opts.outcomes ?? 2, feeRateBps: opts.feeRateBps ?? 0 });
  for (const w of [ALICE, BOB, CAROL, DAVE]) engine.deposit(w, u(opts.deposit ?? "1000"));
  return {
    engine,
    clock,
    events,
    place: (wallet, req) => engine.place({ marketId: "M", ...req, wallet }),
    cash: (w) => engine.balance(w).total,
    locked: (w) => engine.balance(w).locked,
    shares: (w, outcome, marketId = "M") =>
      engine.positions(w, marketId).find((p) => p.outcome === outcome)?.quantity ?? 0n,
    assertConsistent: () => {
      const problems = checkInvariants(engine);
      if (problems.length) throw new Error(`engine inconsistent:\n${problems.slice(0, 20).join("\n")}`);
    },
  };
}
