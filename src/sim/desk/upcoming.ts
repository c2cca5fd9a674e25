/**
 * The upcoming calendar (spec 2.11, 4.5) derived from the scenario's catalogue. The platform's
 * entries are curated announcements; the simulator has no editor, so it announces competitions
 * (docs/spec-gaps.md, "Upcoming, challenges and the all-VOIDED day"):
 *
 * - one announcement per competition: events are grouped by their LAST tag (the most specific:
 *   `[football, premier-league]` gives `premier-league`, as the events list's `competition`
 *   filter compares tags); `tag` is the group's first event's FIRST tag (the broad one); events
 *   without tags are announced nowhere;
 * - `startsAt` the earliest trading start of the group's markets (`preMarketStartsAt`, else
 *   `opensAt`), listed or not yet listed; `endsAt` the latest of their `closesAt` (else `opensAt`)
 *   and the events' kickoffs;
 * - active while one market of the group is not settled (RESOLVED or VOIDED); an active
 *   announcement is served when `[startsAt, endsAt]` overlaps the window `[from, to]`;
 * - `counts` (2.11): events with at least one tradeable market (PRE_MARKET, OPEN, PAUSED,
 *   POSTPONED, the default events list's set) and those tradeable markets; 0 events is the
 *   coming-soon state (every market still unlisted, or none tradeable);
 * - `id` a uuid derived from the competition slug; `title` the competition tag's name;
 *   `description` null; `imageUrl` the competition tag's `iconUrl`; `category` the first event's
 *   vertical (both nullable strings);
 * - earliest `startsAt` first, then id.
 */
import type { Catalogue, Market, SimEvent, Tag } from "../platform/catalogue.js";
import { uuidOf } from "../platform/derive.js";
import { OPEN_SET, TERMINAL } from "../platform/lifecycle.js";
import { isoOf } from "../platform/time.js";

export interface SlugName {
  slug: string;
  name: string;
}

export interface UpcomingEntryJson {
  id: string;
  title: string;
  description: string | null;
  imageUrl: string | null;
  category: string | null;
  startsAt: string;
  endsAt: string;
  competition: SlugName;
  tag: SlugName;
  counts: { events: number; markets: number };
}

interface Group {
  competition: string;
  tag: string;
  category: string | null;
  startMs: number;
  endMs: number;
  unsettled: boolean;
  activeEvents: number;
  activeMarkets: number;
}

function slugName(cat: Catalogue, slug: string): SlugName & { tag: Tag | undefined } {
  const tag = cat.tag(slug);
  return { slug, name: tag?.name ?? slug, tag };
}

function addEvent(cat: Catalogue, g: Group, e: SimEvent): void {
  const markets = e.marketIds.map((id) => cat.market(id, true)).filter((m): m is Market => m !== undefined);
  let tradeable = 0;
  for (const m of markets) {
    const st = cat.lifecycle(m.id);
    const w = st.window;
    g.startMs = Math.min(g.startMs, w.preMarketStartsAtMs ?? w.opensAtMs);
    g.endMs = Math.max(g.endMs, w.closesAtMs ?? w.opensAtMs);
    if (!TERMINAL.has(st.status)) g.unsettled = true;
    if (st.status !== "SCHEDULED" && OPEN_SET.has(st.status)) tradeable++;
  }
  if (e.kickoffMs !== null) g.endMs = Math.max(g.endMs, e.kickoffMs);
  if (tradeable > 0) {
    g.activeEvents++;
    g.activeMarkets += tradeable;
  }
}

/** The active announcements overlapping `[fromMs, toMs]`, earliest start first. */
export function upcomingEntries(cat: Catalogue, fromMs: number, toMs: number): UpcomingEntryJson[] {
  const groups = new Map<string, Group>();
  for (const e of cat.allEvents()) {
    const competition = e.tagSlugs[e.tagSlugs.length - 1];
    const broad = e.tagSlugs[0];
    if (competition === undefined || broad === undefined) continue;
    let g = groups.get(competition);
    if (g === undefined) {
      g = { competition, tag: broad, category: e.vertical, startMs: Infinity, endMs: -Infinity, unsettled: false, activeEvents: 0, activeMarkets: 0 };
      groups.set(competition, g);
    }
    addEvent(cat, g, e);
  }
  const out: (UpcomingEntryJson & { startMs: number })[] = [];
  for (const g of groups.values()) {
    if (!g.unsettled || !Number.isFinite(g.startMs)) continue;
    if (g.startMs > toMs || g.endMs < fromMs) continue;
    const comp = slugName(cat, g.competition);
    const tag = slugName(cat, g.tag);
    out.push({
      startMs: g.startMs,
      id: uuidOf(`upcoming:${g.competition}`),
      title: comp.name,
      description: null,
      imageUrl: comp.tag?.iconUrl ?? null,
      category: g.category,
      startsAt: isoOf(g.startMs),
      endsAt: isoOf(g.endMs),
      competition: { slug: comp.slug, name: comp.name },
      tag: { slug: tag.slug, name: tag.name },
      counts: { events: g.activeEvents, markets: g.activeMarkets },
    });
  }
  out.sort((a, b) => a.startMs - b.startMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.map(({ startMs: _startMs, ...entry }) => entry);
}
