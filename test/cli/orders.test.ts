/**
 * `mm orders` against the in-process simulator after the daemon died: it lists exactly what the
 * platform holds, per wallet, walking every page of the open-orders cursor; --wallet and
 * --market narrow it; --json for machines; config and flag mistakes are named (exit 2).
 */
import { afterEach, describe, expect, it } from "vitest";
import { ordersCommand } from "../../src/cli/orders.js";
import { settle } from "../integration/harness.js";
import { address, capture, deadDaemon, type DeadDaemon } from "./orders-fixtures.js";

let d: DeadDaemon | undefined;
afterEach(() => {
  d?.cleanup();
  d = undefined;
});

describe("mm orders", () => {
  it("lists every open order the simulator holds for each wallet, page after page", async () => {
    d = await deadDaemon();
    const alpha = await d.open("alpha");
    const beta = await d.open("beta");
    expect(alpha.length).toBeGreaterThan(3);
    expect(beta.length).toBeGreaterThan(1);

    const t = capture();
    const code = await settle(d.h.clock, ordersCommand(["--config", d.configFile], t, { ...d.deps, pageSize: 2 }));
    expect(t.err()).toBe("");
    expect(code).toBe(0);
    const out = t.out();
    for (const id of [...alpha, ...beta]) expect(out).toMatch(new RegExp(`\\s${id}\\s`));
    expect(out).toContain(`alpha (${address("alpha")}): ${alpha.length} open`);
    expect(out).toContain(`beta (${address("beta")}): ${beta.length} open`);
    expect(out).toContain(`${alpha.length + beta.length} open orders`);
    // Paged: more than one page per wallet, with the cursor.
    const walks = d.transport.log.filter((r) => r.path.startsWith("/api/orders/open") && r.wallet === address("alpha"));
    expect(walks.length).toBeGreaterThanOrEqual(Math.ceil(alpha.length / 2));
    expect(walks.length).toBeLessThanOrEqual(Math.ceil(alpha.length / 2) + 1);
    expect(walks.slice(1).every((r) => r.path.includes("cursor="))).toBe(true);
  });

  it("--wallet and --market narrow the list; --json is one document", async () => {
    d = await deadDaemon();
    const onA = await d.open("alpha", "A");
    const onC = await d.open("alpha", "C");
    expect(onA.length).toBeGreaterThan(0);
    expect(onC.length).toBeGreaterThan(0);

    const t = capture();
    expect(await settle(d.h.clock, ordersCommand(["--config", d.configFile, "--wallet", "alpha", "--market", "A", "--json"], t, d.deps))).toBe(0);
    const doc = JSON.parse(t.out()) as { wallet: string; address: string; ok: boolean; orders: { id: string; marketId: string; price: string }[] }[];
    expect(doc.map((w) => [w.wallet, w.address, w.ok])).toEqual([["alpha", address("alpha"), true]]);
    expect(doc[0]!.orders.map((o) => o.id).sort()).toEqual(onA);
    expect(doc[0]!.orders.every((o) => o.marketId === "A" && /^0\.\d+$/.test(o.price))).toBe(true);
    expect(d.transport.log.every((r) => r.wallet === undefined || r.wallet === address("alpha"))).toBe(true);
  });

  it("names config and flag mistakes (exit 2) and a failed walk (exit 1)", async () => {
    d = await deadDaemon();
    const cases: [string[], string][] = [
      [[], "--config FILE is required"],
      [["--config", d.configFile, "--wallet", "gamma"], '--wallet "gamma": no wallet of that name'],
      [["--config", d.simConfigFile], "mode: simulator: its platform is the simulator inside the `mm run` process"],
      [["--config", d.configFile, "--walet", "alpha"], "unknown option --walet"],
      [["--config", "/nonexistent/mm.yaml"], "/nonexistent/mm.yaml"],
    ];
    for (const [argv, message] of cases) {
      const t = capture();
      expect(await ordersCommand(argv, t, d.deps), argv.join(" ")).toBe(2);
      expect(t.err()).toContain(message);
      expect(t.out()).toBe("");
    }
    const beta = address("beta");
    d.transport.hook = async (req, wallet, forward) =>
      wallet === beta && req.path.startsWith("/api/orders/open")
        ? { status: 403, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { code: "forbidden", message: "no" } }) }
        : forward();
    const t = capture();
    expect(await settle(d.h.clock, ordersCommand(["--config", d.configFile], t, d.deps))).toBe(1);
    expect(t.out()).toContain(`beta (${beta}): NOT READ: forbidden`);
    expect(t.out()).toContain(`alpha (${address("alpha")}): ${(await d.open("alpha")).length} open`);
    expect(t.err()).toContain("mm orders: beta: open-orders walk failed: forbidden");
  });
});
