/**
 * Up/Down crypto series days (spec 2.8). The exception to the nesting rules: "a day whose windows
 * were all VOIDED before ending nests all of them on the list, and its detail returns 404". A day
 * qualifies once EVERY window of the day (listed or not) is VOIDED with `voidedAt` before the
 * window's end (`closesAt`); a window voided after it ended (a settlement voided late) does not
 * make the day qualify, and neither does a day with one window resolved. docs/spec-gaps.md.
 */
import type { Catalogue, SimEvent } from "./catalogue.js";

export function dayAllVoidedBeforeEnd(cat: Catalogue, e: SimEvent): boolean {
  if (e.cryptoSeries === null || e.marketIds.length === 0) return false;
  return e.marketIds.every((id) => {
    const st = cat.lifecycle(id);
    if (st.status !== "VOIDED" || st.voidedAtMs === null) return false;
    return st.window.closesAtMs === null || st.voidedAtMs < st.window.closesAtMs;
  });
}
