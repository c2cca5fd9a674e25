/**
 * A small catalogue for the desk's catalogue reads (matches, upcoming, challenges; not a test
 * file). Start 2026-06-01T12:00Z (T0), no flow. Every time below is relative to T0:
 *
 *   ars-che-result  [football, premier-league] stage group, group A, kickoff +2h, match ars-che
 *     ARS-WIN, ARS-DRAW   open -1h, close +2h
 *   ars-che-goals   [football, premier-league] stage group, group B, kickoff +3h, match ars-che
 *     GOALS               open -1h, close +3h
 *   liv-mun-final   [football, premier-league] stage final, kickoff +1d, match liv-mun
 *     LIV-WIN             pre-market +2d, open +3d (unlisted until +2d)
 *   election        [politics] vertical politics, no match
 *     ELECT               open -1d, close +30d
 *   misc            no tags
 *     MISC                open -1h
 *
 * Challenges: c-old (ARS-WIN, wallet w1, bond 250, UPHELD at +1h, created -2h), c-old2 (ARS-DRAW,
 * DISMISSED at -1h, created -2h), c-new (ELECT, a mixed-case 0x challenger, OPEN, created -30m),
 * an id-less one on GOALS created +1h, c-unlisted on LIV-WIN created -1h.
 */
import { VirtualClock } from "../../../src/core/clock.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
export const H = 3_600_000;
export const D = 24 * H;
export const W1 = "0x86de5549fb86499c2e7e935b175e2bb5c1fde79e";
export const CHALLENGER = "0x00000000000000000000000000000000000C4A11";

const KEY = `pmk_sim_00000000000000a1_${"S".padEnd(32, "x")}`;

export const CATALOGUE_SCENARIO = `
seed: 7
start: "2026-06-01T12:00:00Z"
platform: { env: sim, keyPrefix: pmk, apiVersion: "2026-10-09" }
tags:
  - { slug: football, name: Football, iconUrl: "https://img.example/football.png" }
  - { slug: premier-league, name: Premier League, color: "#3d195b", iconUrl: "https://img.example/pl.png" }
  - { slug: politics, name: Politics }
partners:
  - id: mm
    name: MM
    kind: multi_wallet
    requirePerWalletKyc: false
    keys:
      - { key: ${KEY}, scopes: [orders:read] }
wallets:
  - { name: w1, address: "${W1}", partner: mm }
events:
  - title: Arsenal v Chelsea
    slug: ars-che-result
    vertical: football
    tags: [football, premier-league]
    stage: group
    group: A
    kickoff: +2h
    match: { slug: ars-che, teamA: { code: ARS, label: Arsenal }, teamB: { code: CHE, label: Chelsea } }
    markets:
      - { title: Arsenal win, slug: ars-win, symbol: ARS-WIN, tradingWindow: { opensAt: -1h, closesAt: +2h } }
      - { title: Draw, slug: ars-draw, symbol: ARS-DRAW, tradingWindow: { opensAt: -1h, closesAt: +2h } }
  - title: Arsenal v Chelsea goals
    slug: ars-che-goals
    vertical: football
    tags: [football, premier-league]
    stage: group
    group: B
    kickoff: +3h
    match: { slug: ars-che, teamA: { code: ARS, label: Arsenal }, teamB: { code: CHE, label: Chelsea } }
    markets:
      - { title: Five goals, slug: goals, symbol: GOALS, tradingWindow: { opensAt: -1h, closesAt: +3h } }
  - title: Liverpool v United
    slug: liv-mun-final
    vertical: football
    tags: [football, premier-league]
    stage: final
    kickoff: +1d
    match: { slug: liv-mun, teamA: { code: LIV }, teamB: { code: MUN } }
    markets:
      - { title: Liverpool win, slug: liv-win, symbol: LIV-WIN, tradingWindow: { preMarketStartsAt: +2d, opensAt: +3d } }
  - title: Election
    slug: election
    vertical: politics
    tags: [politics]
    markets:
      - { title: Incumbent wins, slug: elect, symbol: ELECT, tradingWindow: { opensAt: -1d, closesAt: +30d } }
  - title: Misc
    slug: misc
    markets:
      - { title: Something, slug: misc-m, symbol: MISC, tradingWindow: { opensAt: -1h } }
challenges:
  - { id: c-old, market: ARS-WIN, challenger: w1, proposedOutcome: 1, reason: Offside, bond: "250", status: UPHELD, createdAt: -2h, resolvedAt: +1h }
  - { id: c-old2, market: ARS-DRAW, challenger: w1, proposedOutcome: 0, reason: Late whistle, status: DISMISSED, createdAt: -2h, resolvedAt: -1h }
  - { id: c-new, market: ELECT, challenger: "${CHALLENGER}", proposedOutcome: 0, reason: Wrong source, createdAt: -30m }
  - { market: GOALS, challenger: w1, proposedOutcome: 0, reason: Later, createdAt: +1h }
  - { id: c-unlisted, market: LIV-WIN, challenger: w1, proposedOutcome: 1, reason: Early, createdAt: -1h }
`;

export function catalogueWorld(): { sim: Simulator; clock: VirtualClock } {
  const clock = new VirtualClock(T0);
  const sim = new Simulator(parseScenario(CATALOGUE_SCENARIO, "catalogue.yaml"), { clock, pepper: new Uint8Array(32), flow: false });
  return { sim, clock };
}

export const iso = (ms: number): string => new Date(ms).toISOString();
