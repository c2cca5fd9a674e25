/**
 * The quick checks of the order hot path (src/wire/quick.ts) against their zod schemas, warm, in
 * one process: nanoseconds per check of an order book answer (10 levels a side, as the simulator
 * answers a poll) and a cancel-batch body (two ids), through
 * `safeParseQuick` and through `schema.safeParse` alone; ratio = quick / schema. Process CPU time,
 * median of 5 rounds of BENCH_WIRE_QUICK_N checks (default 100,000). In the daemon these run cold
 * (between two book updates), where a smaller code path saves more than this warm figure says.
 */
import type { z } from "zod";
import { cancelBatchBody, orderbook, safeParseQuick } from "../src/wire/index.js";

const N = Number(process.env["BENCH_WIRE_QUICK_N"] ?? 100_000);

function cpuNs(): bigint {
  const u = process.cpuUsage();
  return BigInt(u.user + u.system) * 1000n;
}

function perCheck(inputs: readonly unknown[], parse: (v: unknown) => boolean): number {
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    let ok = 0;
    const t0 = cpuNs();
    for (let i = 0; i < N; i++) if (parse(inputs[i % inputs.length])) ok++;
    const dt = Number(cpuNs() - t0) / N;
    if (ok !== N) throw new Error(`expected every input to parse, ${N - ok} did not`);
    rounds.push(dt);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}

function line(name: string, schema: z.ZodType, inputs: readonly unknown[]): void {
  const zodNs = perCheck(inputs, (v) => schema.safeParse(v).success);
  const quickNs = perCheck(inputs, (v) => safeParseQuick(schema, v).success);
  console.log(`BENCH wire_quick_${name}_ns ${quickNs.toFixed(0)} ns ratio=${(quickNs / zodNs).toFixed(3)}`);
  console.log(`BENCH wire_zod_${name}_ns ${zodNs.toFixed(0)} ns`);
}

export function run(): Promise<void> {
  const books = Array.from({ length: 64 }, (_, i) => {
    const mid = 400 + (i % 200);
    const level = (t: number) => ({ price: (t / 1000).toFixed(3), quantity: `${100 + t}.5` });
    return JSON.parse(
      JSON.stringify({
        marketId: "ARS-CHE-DRAW",
        outcome: 0,
        tokenId: "11",
        bids: Array.from({ length: 10 }, (_, k) => level(mid - 1 - k)),
        asks: Array.from({ length: 10 }, (_, k) => level(mid + 1 + k)),
        updatedAt: "2026-06-01T12:00:00.250Z",
      }),
    ) as unknown;
  });
  const ids = Array.from({ length: 64 }, (_, i) => [`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, `00000000-0000-4000-8000-${String(i + 100).padStart(12, "0")}`]);
  line("orderbook", orderbook, books);
  line("cancel_batch_body", cancelBatchBody, ids.map((x) => ({ orderIds: x })));
  return Promise.resolve();
}
