/**
 * `mm cancel-all` against the in-process simulator after the daemon died: the selected wallet
 * (and market) is left with zero open orders and the others keep theirs; it asks first (no
 * terminal: --yes required); a cancel whose answer is lost is confirmed by re-reading, never
 * assumed; a cancel the platform never receives leaves the orders UNKNOWN and the exit 1.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cancelAllCommand, type CancelAllIo, type WalletCancelReport } from "../../src/cli/cancel-all.js";
import { TransportError } from "../../src/wire/transport.js";
import { settle } from "../integration/harness.js";
import { address, capture, deadDaemon, type DeadDaemon } from "./orders-fixtures.js";

let d: DeadDaemon | undefined;
afterEach(() => {
  d?.cleanup();
  d = undefined;
});

function io(opts: { tty?: boolean; answer?: boolean } = {}): CancelAllIo & { out: () => string; err: () => string; asked: string[] } {
  const c = capture();
  const asked: string[] = [];
  return {
    ...c,
    isTTY: opts.tty ?? false,
    confirm: (q) => {
      asked.push(q);
      return Promise.resolve(opts.answer ?? false);
    },
    asked,
  };
}

const isCancel = (path: string): boolean => path.startsWith("/api/orders/cancel");

describe("mm cancel-all", () => {
  it("--wallet: that wallet ends with zero open orders on the simulator, the other keeps every one", async () => {
    d = await deadDaemon();
    const alpha = await d.open("alpha");
    const beta = await d.open("beta");
    expect(alpha.length).toBeGreaterThan(3);
    expect(beta.length).toBeGreaterThan(1);

    const t = io();
    const code = await settle(d.h.clock, cancelAllCommand(["--config", d.configFile, "--wallet", "alpha", "--yes"], t, d.deps));
    expect(t.err()).toBe("");
    expect(code).toBe(0);
    expect(await d.open("alpha")).toEqual([]);
    expect(await d.open("beta")).toEqual(beta);
    expect(t.asked).toEqual([]);
    const out = t.out();
    for (const id of alpha) expect(out).toMatch(new RegExp(`\\s${id}\\s`));
    expect(out).toMatch(new RegExp(`alpha\\s*│\\s*${address("alpha")}\\s*│\\s*${alpha.length}\\s*│\\s*${alpha.length}\\s*│\\s*0\\s*│\\s*0\\s`));
    expect(out).toContain("every order confirmed ended");
    // Nothing was sent for beta.
    expect(d.transport.log.some((r) => r.wallet === address("beta"))).toBe(false);
    // One cancel-all, then the confirming walk.
    expect(d.transport.log.filter((r) => r.path === "/api/orders/cancel-all")).toHaveLength(1);
  });

  it("--market: only that market's orders end; --json reports per wallet", async () => {
    d = await deadDaemon();
    const onA = await d.open("alpha", "A");
    const onC = await d.open("alpha", "C");
    const beta = await d.open("beta");
    expect(onA.length).toBeGreaterThan(0);
    expect(onC.length).toBeGreaterThan(0);
    const t = io();
    expect(await settle(d.h.clock, cancelAllCommand(["--config", d.configFile, "--market", "A", "--yes", "--json"], t, d.deps))).toBe(0);
    expect(await d.open("alpha", "A")).toEqual([]);
    expect(await d.open("alpha", "C")).toEqual(onC);
    expect(await d.open("beta")).toEqual(beta);
    const reports = JSON.parse(t.out()) as WalletCancelReport[];
    expect(reports.map((r) => [r.wallet, r.listed, r.cancelled.map((c) => c.orderId).sort(), r.alreadyGone, r.unknown, r.finalWalkOk])).toEqual([
      ["alpha", onA.length, onA, [], [], true],
      ["beta", 0, [], [], [], true],
    ]);
  });

  it("asks first: no terminal and no --yes refuses; a 'no' cancels nothing; a 'yes' cancels", async () => {
    d = await deadDaemon();
    const alpha = await d.open("alpha");
    const noTty = io({ tty: false });
    expect(await cancelAllCommand(["--config", d.configFile], noTty, d.deps)).toBe(2);
    expect(noTty.err()).toContain("stdin is not a terminal");
    expect(noTty.err()).toContain("--yes");

    const no = io({ tty: true, answer: false });
    expect(await settle(d.h.clock, cancelAllCommand(["--config", d.configFile, "--wallet", "alpha"], no, d.deps))).toBe(2);
    expect(no.asked).toEqual([`Cancel every open order of alpha (${alpha.length} listed)? [y/N] `]);
    expect(no.err()).toContain("not confirmed; nothing cancelled");
    expect(await d.open("alpha")).toEqual(alpha);
    expect(d.transport.log.some((r) => isCancel(r.path))).toBe(false);

    const yes = io({ tty: true, answer: true });
    expect(await settle(d.h.clock, cancelAllCommand(["--config", d.configFile, "--wallet", "alpha"], yes, d.deps))).toBe(0);
    expect(await d.open("alpha")).toEqual([]);
  });

  it("a lost cancel answer is confirmed by re-reading the orders, not assumed", async () => {
    d = await deadDaemon();
    const alpha = await d.open("alpha");
    // The platform gets every cancel; its answers are lost on the way back.
    d.transport.hook = async (req, _wallet, forward) => {
      if (!isCancel(req.path)) return forward();
      await forward();
      throw new TransportError("timeout", true, "timeout");
    };
    const t = io();
    expect(await settle(d.h.clock, cancelAllCommand(["--config", d.configFile, "--wallet", "alpha", "--yes", "--json"], t, d.deps))).toBe(0);
    const [r] = JSON.parse(t.out()) as WalletCancelReport[];
    expect(r!.cancelled.map((c) => c.orderId).sort()).toEqual(alpha);
    expect(r!.cancelled.every((c) => c.why === "read CANCELLED after our cancel")).toBe(true);
    expect(r!.unknown).toEqual([]);
    expect(r!.notes.join(" ")).toContain("cancel-all outcome unknown (not resent)");
    expect(d.transport.log.filter((x) => x.path === "/api/orders/cancel-all")).toHaveLength(1);
    expect(d.transport.log.some((x) => x.path.startsWith("/api/orders/o"))).toBe(true);
  });

  it("cancels the platform never gets: every order UNKNOWN (never 'cancelled'), exit 1", async () => {
    d = await deadDaemon();
    const alpha = await d.open("alpha");
    d.transport.hook = async (req, _wallet, forward) => (isCancel(req.path) ? Promise.reject(new TransportError("timeout", true, "timeout")) : forward());
    const t = io();
    expect(await settle(d.h.clock, cancelAllCommand(["--config", d.configFile, "--wallet", "alpha", "--yes"], t, d.deps))).toBe(1);
    expect(await d.open("alpha")).toEqual(alpha);
    const out = t.out();
    // After that many failures the client's circuit breaker (spec 7.4) may refuse the confirming
    // reads too: either way each order is UNKNOWN, with the reason.
    for (const id of alpha) expect(out).toMatch(new RegExp(`alpha: ${id} UNKNOWN: (still listed open|not confirmed ended: read failed)`));
    expect(out).toContain(`${alpha.length} orders NOT confirmed ended`);
    expect(out).not.toContain("every order confirmed ended");
    expect(out).toMatch(new RegExp(`alpha\\s*│\\s*${address("alpha")}\\s*│\\s*${alpha.length}\\s*│\\s*0\\s*│\\s*0\\s*│\\s*${alpha.length}\\s`));
  });

  it("nothing open: says so and sends no cancel", async () => {
    d = await deadDaemon();
    const t = io();
    expect(await settle(d.h.clock, cancelAllCommand(["--config", d.configFile, "--market", "Z", "--yes"], t, d.deps))).toBe(0);
    expect(t.out()).toContain("nothing to cancel: no open orders on Z for alpha, beta");
    const j = io();
    expect(await settle(d.h.clock, cancelAllCommand(["--config", d.configFile, "--market", "Z", "--yes", "--json"], j, d.deps))).toBe(0);
    expect((JSON.parse(j.out()) as WalletCancelReport[]).map((r) => [r.wallet, r.listed, r.finalWalkOk])).toEqual([
      ["alpha", 0, true],
      ["beta", 0, true],
    ]);
    expect(d.transport.log.some((r) => isCancel(r.path))).toBe(false);
  });
});
