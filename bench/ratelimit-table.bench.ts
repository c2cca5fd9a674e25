/**
 * Per-request cost of the rate-limit layer: the table lookup (both sides run it on every request), the
 * platform's fixed-window check, and a gate admission that does not wait. The lookup is compared with
 * parsing the path alone (ratio = lookup / parse), which it cannot avoid.
 */
import { VirtualClock } from "../src/core/clock.js";
import { FixedWindowLimiter } from "../src/ratelimit/fixed-window.js";
import { RateGate } from "../src/ratelimit/gate.js";
import { bucketsFor, splitPath } from "../src/ratelimit/table.js";

const PATHS: [string, string][] = [
  ["POST", "/api/orders/place"],
  ["POST", "/api/orders/cancel"],
  ["GET", "/api/orders/ord_123/fills"],
  ["GET", "/api/markets/RAIN/orderbook"],
  ["GET", "/api/leaderboard?search=alice"],
  ["GET", "/api/me/balances"],
  ["GET", "/api/tags"],
];

function timeNs(n: number, fn: (i: number) => void): number {
  for (let i = 0; i < Math.min(n, 10_000); i++) fn(i); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn(i);
  return Number(process.hrtime.bigint() - t0) / n;
}

export async function run(): Promise<void> {
  const n = 200_000;
  let sink = 0;
  const parse = timeNs(n, (i) => {
    sink += splitPath(PATHS[i % PATHS.length]![1]).parts.length;
  });
  const lookup = timeNs(n, (i) => {
    const [m, p] = PATHS[i % PATHS.length]!;
    sink += bucketsFor(m, p).length;
  });
  console.log(`BENCH ratelimit-bucketsFor ${lookup.toFixed(0)} ns/op ratio=${(lookup / parse).toFixed(2)}`);

  const lim = new FixedWindowLimiter();
  const rules = bucketsFor("POST", "/api/orders/place");
  const t0 = Date.UTC(2026, 0, 1);
  const check = timeNs(n, (i) => {
    const wallet = `0x${(i % 500).toString(16).padStart(40, "0")}`;
    sink += lim.check(rules, { ip: "2001:db8::1", wallet }, t0 + Math.floor(i / 50)).allowed ? 1 : 0;
  });
  console.log(`BENCH ratelimit-fixed-window-check ${check.toFixed(0)} ns/op`);

  const clock = new VirtualClock(t0);
  const gate = new RateGate({ clock, safetyMargin: 0, rateLimitPerMin: 600_000_000 });
  const m = 50_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < m; i++) await gate.acquire({ method: "GET", path: "/api/orders/open", wallet: `0x${(i % 100).toString(16).padStart(40, "0")}` });
  const acquire = Number(process.hrtime.bigint() - start) / m;
  console.log(`BENCH ratelimit-gate-acquire-immediate ${acquire.toFixed(0)} ns/op`);
  if (sink < 0) console.log(sink);
}
