/**
 * Settlement of one fill, atomically: both parties' settlement-token legs, their shares, the
 * collateral backing of the market (mint / merge), and the taker fee.
 *
 * Rounding. Each order's settlement-token amount is computed on its cumulative exact notional: a
 * BUY has paid ceil(sum(tick*qty)/1000) micros after any number of fills, a SELL has received
 * floor(...). So an order's total is exactly its signed amount's rounding (a BUY fully filled at its
 * limit pays its makerAmount, a SELL receives its takerAmount) and a BUY can never pay more than it
 * locked. The two legs of one fill may then differ by a micro; the difference goes to the house's
 * rounding account, whose running total is never negative (buyers round up, sellers down).
 */
import type { Micros } from "../../core/money.js";
import type { Account } from "./account.js";
import type { Ledger } from "./ledger.js";
import type { MarketState } from "./market.js";
import { F_COMPLEMENT, F_SELL } from "./order.js";
import { PRICE_OF_TICK, TICK_BIG, TICK_ONE } from "./ticks.js";
import type { FillKind, TradeRecord } from "./types.js";

/**
 * Settle `qty` at book tick `bookTick` (the maker's level). Order quantities (filled/remaining)
 * must already include this fill.
 */
export function settleFill(
  L: Ledger, m: MarketState, taker: number, ta: Account, maker: number, ma: Account,
  bookTick: number, qty: Micros, id: string, atMs: number,
): TradeRecord {
  const st = L.st;
  const tFlags = st.flags(taker);
  const mFlags = st.flags(maker);
  const takerTick = (tFlags & F_COMPLEMENT) !== 0 ? TICK_ONE - bookTick : bookTick;
  const makerTick = (mFlags & F_COMPLEMENT) !== 0 ? TICK_ONE - bookTick : bookTick;
  const row = L.tradeLog.count;
  const takerCash = leg(L, m, taker, ta, takerTick, qty, false, row);
  const makerCash = leg(L, m, maker, ma, makerTick, qty, true, row);
  const takerBuys = (tFlags & F_SELL) === 0;
  const makerBuys = (mFlags & F_SELL) === 0;
  let kind: FillKind;
  let kindCode: number;
  let dust: Micros;
  if (takerBuys === makerBuys) {
    kind = takerBuys ? "mint" : "merge";
    kindCode = takerBuys ? 1 : 2;
    const sets = L.sets[m.index]!;
    if (takerBuys) {
      L.sets[m.index] = sets + qty;
      dust = takerCash + makerCash - qty;
    } else {
      L.sets[m.index] = sets - qty;
      dust = qty - takerCash - makerCash;
    }
  } else {
    kind = "transfer";
    kindCode = 0;
    dust = takerBuys ? takerCash - makerCash : makerCash - takerCash;
  }
  if (dust !== 0n) L.house[1] = L.house[1]! + dust;
  const takerPrice = PRICE_OF_TICK[takerTick]!;
  const fee = m.feeRateBps === 0 ? 0n : chargeFee(L, m, taker, ta, m.fillFee(takerTick, qty), row);
  const trade: TradeRecord = {
    id,
    marketId: m.id,
    kind,
    tokenId: m.tokenIds[st.outcome(taker)]!,
    outcome: st.outcome(taker),
    side: takerBuys ? "BUY" : "SELL",
    price: takerPrice,
    quantity: qty,
    fee,
    feeRateBps: m.feeRateBps,
    makerOrderId: st.ids[maker]!,
    takerOrderId: st.ids[taker]!,
    makerWallet: ma.checksum,
    takerWallet: ta.checksum,
    makerOutcome: st.outcome(maker),
    makerTokenId: m.tokenIds[st.outcome(maker)]!,
    makerSide: makerBuys ? "BUY" : "SELL",
    makerPrice: PRICE_OF_TICK[makerTick]!,
    takerCash,
    makerCash,
    createdAtMs: atMs,
  };
  if (L.recordTrades) {
    L.tradeLog.append(
      id, m.index, trade.takerOrderId, trade.makerOrderId, ta.index, ma.index, trade.outcome, trade.makerOutcome,
      (takerBuys ? 0 : 1) | (makerBuys ? 0 : 2) | (kindCode << 2) | (takerTick << 8) | (makerTick << 20),
      qty, fee, takerCash, makerCash, atMs,
    );
  }
  return trade;
}

/** One party's leg; returns the settlement token paid (BUY) or received (SELL). */
function leg(L: Ledger, m: MarketState, s: number, a: Account, tick: number, qty: Micros, isMaker: boolean, row: number): Micros {
  const st = L.st;
  const i = a.index;
  const p = L.posSlot(a, m, st.outcome(s));
  const acc = st.cashAcc(s) + TICK_BIG[tick]! * qty;
  st.setCashAcc(s, acc);
  if ((st.flags(s) & F_SELL) === 0) {
    const total = (acc + 999n) / 1000n;
    const cash = total - st.cashDone(s);
    st.setCashDone(s, total);
    st.setLockCash(s, st.lockCash(s) - cash);
    L.cash[i] = L.cash[i]! - cash;
    let locked = L.locked[i]! - cash;
    L.posQty[p] = L.posQty[p]! + qty;
    L.posCost[p] = L.posCost[p]! + cash;
    const lockFee = st.lockFee(s);
    if (isMaker && lockFee !== 0n) {
      // A resting BUY never pays a fee: its fee lock is released pro rata as it fills.
      const rem = st.remaining(s);
      const rel = rem === 0n ? lockFee : (lockFee * qty) / (rem + qty);
      st.setLockFee(s, lockFee - rel);
      locked -= rel;
    }
    L.locked[i] = locked;
    if (L.recordEvents) L.event(a, "trade", -cash, m.index, L.recordTrades ? row : -1);
    return cash;
  }
  const total = acc / 1000n;
  const cash = total - st.cashDone(s);
  st.setCashDone(s, total);
  L.posLocked[p] = L.posLocked[p]! - qty;
  L.reduceShares(p, qty);
  L.cash[i] = L.cash[i]! + cash;
  if (L.recordEvents) L.event(a, "trade", cash, m.index, L.recordTrades ? row : -1);
  return cash;
}

/**
 * The taker pays the fee of docs/spec-gaps.md: a BUY from its fee lock, a SELL from its proceeds
 * (already credited), then from its available balance. Per-fill ceil rounding can make many dust
 * fills cost more than the peak-fee lock; if the wallet cannot cover that, the fee is capped at
 * what it can pay rather than overdrawing the vault.
 */
function chargeFee(L: Ledger, m: MarketState, s: number, a: Account, fee: Micros, row: number): Micros {
  if (fee === 0n) return 0n;
  const st = L.st;
  const i = a.index;
  let charged = fee;
  let locked = L.locked[i]!;
  if ((st.flags(s) & F_SELL) === 0) {
    const lockFee = st.lockFee(s);
    const fromLock = lockFee < fee ? lockFee : fee;
    st.setLockFee(s, lockFee - fromLock);
    locked -= fromLock;
    L.locked[i] = locked;
    const extra = fee - fromLock;
    if (extra !== 0n) {
      const avail = L.cash[i]! - fromLock - locked;
      if (avail < extra) charged = fromLock + (avail > 0n ? avail : 0n);
    }
  } else {
    const avail = L.cash[i]! - locked;
    if (avail < fee) charged = avail > 0n ? avail : 0n;
  }
  L.cash[i] = L.cash[i]! - charged;
  L.fees[i] = L.fees[i]! + charged;
  st.setFeesPaid(s, st.feesPaid(s) + charged);
  L.house[0] = L.house[0]! + charged;
  if (L.recordEvents && charged !== 0n) L.event(a, "fee", -charged, m.index, L.recordTrades ? row : -1);
  return charged;
}
