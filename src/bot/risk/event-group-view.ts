/**
 * The event group of one market as a quote cycle receives it: the group (event-group.ts) for the
 * risk step, and what the strategy is shown of the sibling markets (their YES book as last read,
 * our positions in them). The shell (engine/wallet-quoting.ts) hands in its reads as functions;
 * nothing here reads anything itself.
 */
import type { BookView, EventGroupInput, EventSibling, PositionView } from "../../../strategies/contract.js";
import { eventGroupOf, type EventGroup, type GroupRow } from "./event-group.js";

export interface EventRow extends GroupRow {
  groupItemTitle: string | null;
}

export interface CycleEvent {
  group: EventGroup;
  /** The strategy's view (StrategyInput.eventGroup). */
  view: EventGroupInput;
}

export interface EventReads {
  /** The market's YES book as last read, or undefined. */
  book(symbol: string): BookView | undefined;
  /** This wallet's positions in the market. */
  positions(symbol: string): readonly PositionView[];
}

/** The cycle's event of `symbol` among the followed markets' rows; undefined when it is in no neg-risk group. */
export function cycleEvent(rows: readonly EventRow[], symbol: string, reads: EventReads): CycleEvent | undefined {
  const group = eventGroupOf(rows, symbol);
  if (group === undefined) return undefined;
  const siblings: EventSibling[] = [];
  for (const market of group.markets) {
    if (market === symbol) continue;
    const row = rows.find((r) => r.symbol === market);
    siblings.push({ marketId: market, label: row?.groupItemTitle ?? null, book: reads.book(market), inventory: reads.positions(market) });
  }
  return { group, view: { eventId: group.eventId, siblings } };
}
