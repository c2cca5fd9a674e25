/**
 * The runnable examples of docs/client.md (examples/client/*.ts) run here against the in-process
 * simulator, so they never rot: each `main()` is called and its result checked, and one is also
 * started as a script the way the docs say (`tsx examples/client/<name>.ts`).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main as followStream } from "../../../examples/client/follow-stream.js";
import { main as placeOrder } from "../../../examples/client/place-order.js";
import { main as readMarkets } from "../../../examples/client/read-markets.js";
import { main as walkOpenOrders } from "../../../examples/client/walk-open-orders.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

let logged: string[] = [];
beforeEach(() => {
  logged = [];
  vi.stubEnv("PM_BASE_URL", "");
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("examples/client", () => {
  it("read-markets lists the open markets and reads a book", async () => {
    const r = await readMarkets();
    expect(r.symbols).toEqual(expect.arrayContaining(["ARS-CHE-ARS", "EPL-WINNER", "BAR-RMA-BAR"]));
    expect(logged.at(-1)).toMatch(/bid levels/);
  });

  it("place-order signs, places (accepted) and cancels until final", async () => {
    const r = await placeOrder();
    expect(r).toMatchObject({ outcome: "accepted", final: "CANCELLED" });
    expect(r.orderId).toBeTruthy();
  });

  it("walk-open-orders walks every seeded order once, and one market page by page", async () => {
    const r = await walkOpenOrders();
    expect(r).toEqual({ all: 7, inFirstMarket: 3 });
  });

  it("follow-stream sees the order placed and cancelled", async () => {
    const r = await followStream();
    expect(r.frames).toEqual(["order_placed", "order_cancelled"]);
  });

  it("runs as a script with tsx, as the docs say", async () => {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "examples/client/read-markets.ts"],
        { cwd: ROOT, env: { ...process.env, PM_BASE_URL: "" }, timeout: 30_000 },
        (err, stdout) => (err ? reject(new Error(`example failed: ${err.message}`)) : resolve(stdout)),
      );
    });
    expect(out).toMatch(/^ARS-CHE-ARS +OPEN/m);
  });
});
