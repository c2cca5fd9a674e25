/**
 * Consistency checks over the whole engine state, for tests and for a debug mode of the simulator.
 * Returns one message per violation (empty when consistent). O(orders + positions): not for hot paths.
 */
import { ASK, BID, NIL, type BookSide } from "./order.js";
import { NO_ASK, NO_BID, type Book } from "./book.js";
import type { MatchingEngine } from "./engine.js";
import { MAX_TICK, MIN_TICK, TICK_BIG } from "./ticks.js";

function checkBook(engine: MatchingEngine, id: string, book: Book, out: string[], seen: Set<number>): void {
  const st = engine.st;
  for (const side of [BID, ASK] as BookSide[]) {
    const lv = book.side(side);
    let best = side === BID ? NO_BID : NO_ASK;
    for (let t = MIN_TICK; t <= MAX_TICK; t++) {
      let qty = 0n;
      let count = 0;
      let prev = NIL;
      for (let s = lv.head[t]!; s !== NIL; s = st.next(s)) {
        const oid = st.ids[s];
        if (st.prev(s) !== prev) out.push(`${id}: broken prev link at ${side}/${t}`);
        if (st.bookSide(s) !== side || st.bookTick(s) !== t) out.push(`${id}: order ${oid} in the wrong level`);
        if (!st.isResting(s) || !st.isLive(s)) out.push(`${id}: order ${oid} in book but not live`);
        if (st.remaining(s) <= 0n) out.push(`${id}: order ${oid} rests with remaining ${st.remaining(s)}`);
        if (oid === undefined || engine.orders.get(oid) !== s) out.push(`${id}: order ${oid} not in the id map`);
        if (st.filled(s) + st.remaining(s) !== st.quantity(s)) out.push(`${id}: order ${oid} filled+remaining != quantity`);
        if (seen.has(s)) {
          out.push(`${id}: slot ${s} linked twice`);
          break;
        }
        seen.add(s);
        qty += st.remaining(s);
        count++;
        prev = s;
      }
      if (lv.tail[t] !== prev) out.push(`${id}: tail mismatch at ${side}/${t}`);
      if (lv.qty[t] !== qty) out.push(`${id}: level ${side}/${t} qty ${lv.qty[t]} != sum ${qty}`);
      if (lv.count[t] !== count) out.push(`${id}: level ${side}/${t} count ${lv.count[t]} != ${count}`);
      if (book.occupied(side, t) !== count > 0) out.push(`${id}: bitmap wrong at ${side}/${t}`);
      if (count > 0 && (side === BID || best === NO_ASK)) best = t;
    }
    const tracked = book.best(side);
    if (tracked !== best) out.push(`${id}: best ${side === BID ? "bid" : "ask"} ${tracked} != ${best}`);
  }
  if (book.bestBid !== NO_BID && book.bestAsk !== NO_ASK && book.bestBid >= book.bestAsk) {
    out.push(`${id}: crossed book ${book.bestBid} >= ${book.bestAsk}`);
  }
}

export function checkInvariants(engine: MatchingEngine): string[] {
  const out: string[] = [];
  const seen = new Set<number>();
  const st = engine.st;
  for (const m of engine.markets.values()) m.books.forEach((b, i) => checkBook(engine, `${m.id}#${i}`, b, out, seen));
  if (seen.size !== engine.orders.size) out.push(`id map holds ${engine.orders.size} orders, books ${seen.size}`);
  if (st.live !== engine.orders.size) out.push(`store holds ${st.live} live slots, id map ${engine.orders.size}`);

  const L = engine.ledger;
  let cash = 0n;
  const shareLocks = new Map<number, bigint>();
  for (const a of L.accountList) {
    const total = L.cash[a.index]!;
    const locked = L.locked[a.index]!;
    cash += total;
    if (total < 0n || locked < 0n || locked > total) out.push(`${a.key}: cash ${total} locked ${locked}`);
    let orderLocks = 0n;
    let n = 0;
    const listed = new Set<number>();
    for (const s of a.restingSlots(st)) {
      n++;
      if (listed.has(s)) out.push(`${a.key}: order ${st.ids[s]} listed twice`);
      listed.add(s);
      if (!seen.has(s)) out.push(`${a.key}: listed order ${st.ids[s]} is not on a book`);
      if (st.account(s) !== a.index) out.push(`${a.key}: order ${st.ids[s]} listed under the wrong wallet`);
      if (!st.isSell(s)) {
        if (st.lockCash(s) < 0n || st.lockFee(s) < 0n) out.push(`${st.ids[s]}: negative lock`);
        // A resting BUY holds exactly what its remainder can still cost at its limit.
        const need = (st.cashAcc(s) + TICK_BIG[st.tick(s)]! * st.remaining(s) + 999n) / 1000n - st.cashDone(s);
        if (st.lockCash(s) !== need) out.push(`${st.ids[s]}: lockCash ${st.lockCash(s)} != ${need}`);
        orderLocks += st.lockCash(s) + st.lockFee(s);
      } else {
        const p = L.peekSlot(a, L.markets[st.market(s)]!, st.outcome(s));
        shareLocks.set(p, (shareLocks.get(p) ?? 0n) + st.remaining(s));
      }
    }
    if (n !== a.openOrders) out.push(`${a.key}: openOrders ${a.openOrders} != ${n}`);
    const opLock = L.opCashLocks.get(a.index) ?? 0n;
    if (orderLocks + opLock !== locked) out.push(`${a.key}: locked ${locked} != order locks ${orderLocks}${opLock === 0n ? "" : ` + vault-operation locks ${opLock}`}`);
  }
  const supply = new Map<string, bigint>();
  for (let p = 0; p < L.posCount; p++) {
    const qty = L.posQty[p]!;
    const lk = L.posLocked[p]!;
    const where = `${L.accountList[L.posAccount[p]!]!.key} ${L.markets[L.posMarket[p]!]!.id}/${L.posOutcome[p]}`;
    const opShares = L.opShareLocks.get(p) ?? 0n;
    if (lk !== (shareLocks.get(p) ?? 0n) + opShares) out.push(`${where}: locked ${lk} != sell orders ${shareLocks.get(p) ?? 0n}${opShares === 0n ? "" : ` + vault-operation locks ${opShares}`}`);
    if (qty < lk || lk < 0n) out.push(`${where}: qty ${qty} locked ${lk}`);
    if (L.posCost[p]! < 0n) out.push(`${where}: negative cost`);
    const k = `${L.posMarket[p]}:${L.posOutcome[p]}`;
    supply.set(k, (supply.get(k) ?? 0n) + qty);
  }
  let sets = 0n;
  for (const m of engine.markets.values()) {
    const ms = L.sets[m.index]!;
    sets += ms;
    for (let i = 0; i < m.outcomeCount; i++) {
      const have = supply.get(`${m.index}:${i}`) ?? 0n;
      if (have !== ms) out.push(`${m.id}: outcome ${i} supply ${have} != sets ${ms}`);
    }
  }
  if (L.houseDust < 0n) out.push(`house rounding account negative: ${L.houseDust}`);
  const total = cash + L.houseFees + L.houseDust + sets;
  if (total !== L.netDeposits) out.push(`conservation: ${total} != deposits ${L.netDeposits}`);
  return out;
}
