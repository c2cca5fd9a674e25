/** Public discovery resources: leaderboard (spec 2.10) and the upcoming calendar (spec 2.11). */
import { z } from "zod";
import { leaderboardPeriod } from "./enums.js";
import { address, decimalString, int, isoDateTime, nextCursor, nonNegativeInt } from "./primitives.js";

/** Spec 2.10 entry. `username` type not shown: nullable string (wallets without a profile). */
export const leaderboardEntry = z.looseObject({
  rank: int,
  vaultAddress: address,
  username: z.string().nullable(),
  pnl: decimalString,
  volume: decimalString,
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntry>;

/** The caller's own row: rank is null before any realised activity. */
export const leaderboardMe = z.looseObject({ ...leaderboardEntry.shape, rank: int.nullable() });
export type LeaderboardMe = z.infer<typeof leaderboardMe>;

export const leaderboard = z.looseObject({
  period: leaderboardPeriod,
  snapshotAt: isoDateTime,
  total: nonNegativeInt,
  entries: z.array(leaderboardEntry),
  nextCursor,
  me: leaderboardMe.nullable(),
});
export type Leaderboard = z.infer<typeof leaderboard>;

const slugName = z.looseObject({ slug: z.string(), name: z.string() });

/** Spec 2.11 entry; description/imageUrl/category types are not shown and stay unknown. */
export const upcomingEntry = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.unknown().optional(),
  imageUrl: z.unknown().optional(),
  category: z.unknown().optional(),
  startsAt: z.string(),
  endsAt: z.string(),
  competition: slugName,
  tag: slugName,
  counts: z.looseObject({ events: nonNegativeInt, markets: nonNegativeInt }),
});
export type UpcomingEntry = z.infer<typeof upcomingEntry>;

export const upcoming = z.looseObject({ upcoming: z.array(upcomingEntry) });
export type Upcoming = z.infer<typeof upcoming>;
