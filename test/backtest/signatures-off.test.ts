/**
 * `mm backtest --signatures off` (docs/backtest.md "Signatures off"): the run goes through with the
 * simulator not verifying and the daemon not signing, the report says so (JSON and summary), and
 * everything else in the report equals the signed run's on the same inputs: the same fills one
 * by one, PnL, orders and checks (signatures do not take part in matching). Same seed, same
 * report. The no-op signer's fake signature has the right shape and recovers to no one.
 * (That `mm run` cannot get the mode: signatures-off-guard.test.ts.)
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { backtestCommand, parseBacktestArgs, type BacktestIo } from "../../src/cli/backtest.js";
import type { Fill } from "../../src/bot/fills/fill-ledger.js";
import {
  BacktestSetupError,
  compareFillLists,
  comparablePart,
  formatSummary,
  prepareBacktest,
  reportJson,
  runBacktest,
  type BacktestReport,
} from "../../src/backtest/index.js";
import { buildOrder, recoverOrderSigner } from "../../src/signing/index.js";
import { UNSIGNED_SIGNATURE, UnsignedOrderSigner } from "../../src/signing/unsigned.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CONFIG = join(HERE, "fixtures", "config.yaml");
const DURATION_MS = 3 * 60_000;

interface Run {
  report: BacktestReport;
  fills: Fill[];
  verified: boolean;
  presigned: number;
}

async function run(signatures: "on" | "off"): Promise<Run> {
  let fills: Fill[] = [];
  let verified = true;
  let presigned = 0;
  const report = await runBacktest({
    configPath: CONFIG,
    durationMs: DURATION_MS,
    signatures,
    onFinish: ({ daemon, sim }) => {
      fills = daemon.ledger.fills();
      verified = sim.desk.verifySignatures;
      presigned = daemon.runners.reduce((n, r) => n + (r.presignStats()?.signed ?? 0), 0);
    },
  });
  return { report, fills, verified, presigned };
}

/** The report with the mode blanked, for comparing a signed run with an unsigned one. */
function withoutMode(r: BacktestReport): string {
  const c = comparablePart(r) as { run: { signatures?: string } };
  return JSON.stringify({ ...c, run: { ...c.run, signatures: "(either)" } }, null, 2);
}

let on: Run;
let off: Run;
let off2: Run;

beforeAll(async () => {
  on = await run("on");
  off = await run("off");
  off2 = await run("off");
}, 120_000);

describe("a backtest with signatures off", () => {
  it("runs cleanly with the simulator not verifying and nothing pre-signed", () => {
    expect(off.report.problems).toEqual([]);
    expect(off.report.ok).toBe(true);
    expect(off.report.totals.fills.count).toBeGreaterThan(5);
    expect(off.verified).toBe(false);
    expect(off.presigned).toBe(0);
    expect(on.verified).toBe(true);
    expect(on.presigned).toBeGreaterThan(0);
  });

  it("says so in the JSON report and in the summary", () => {
    expect(off.report.run.signatures).toBe("off");
    expect(on.report.run.signatures).toBe("on");
    expect(JSON.parse(reportJson(off.report))).toMatchObject({ run: { signatures: "off" } });
    expect(formatSummary(off.report)).toMatch(/^ {2}signatures OFF: orders neither signed nor verified/m);
    expect(formatSummary(on.report)).not.toMatch(/signatures OFF/);
  });

  it("gives the signed run's report: the same fills one by one, PnL, orders and checks", () => {
    expect(off.report.totals).toEqual(on.report.totals);
    expect(off.report.markets).toEqual(on.report.markets);
    expect(off.fills).toHaveLength(on.fills.length);
    expect(compareFillLists(off.fills, on.fills).ok).toBe(true);
    expect(withoutMode(off.report)).toBe(withoutMode(on.report));
  });

  it("is byte-identical when repeated, except for the timing section", () => {
    expect(JSON.stringify(comparablePart(off2.report))).toBe(JSON.stringify(comparablePart(off.report)));
  });

  it("is reached by mm backtest --signatures off, which writes the mode to the report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-bt-sigoff-"));
    const file = join(dir, "r.json");
    const out: string[] = [];
    const err: string[] = [];
    const io: BacktestIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, progress: false };
    expect(await backtestCommand(["--config", CONFIG, "--duration", "3m", "--signatures", "off", "--out", file], io)).toBe(0);
    expect(err.join("")).toMatch(/strategy ladder, seed 3, signatures off\n/);
    expect(out.join("")).toMatch(/signatures OFF/);
    const written = JSON.parse(readFileSync(file, "utf8")) as BacktestReport;
    expect(written.run.signatures).toBe("off");
    expect(JSON.stringify(comparablePart(written))).toBe(JSON.stringify(comparablePart(off.report)));
  });
});

describe("the mode's inputs", () => {
  it("defaults to on and refuses anything but on or off", () => {
    expect(prepareBacktest({ configPath: CONFIG, durationMs: 60_000 }).signatures).toBe("on");
    expect(prepareBacktest({ configPath: CONFIG, durationMs: 60_000, signatures: "off" }).signatures).toBe("off");
    expect(() => prepareBacktest({ configPath: CONFIG, durationMs: 60_000, signatures: "no" as "off" })).toThrow(BacktestSetupError);
    expect(() => prepareBacktest({ configPath: CONFIG, durationMs: 60_000, signatures: "no" as "off" })).toThrow(/signatures must be "on" or "off" \(got "no"\)/);
    expect(parseBacktestArgs(["--signatures", "off"])).toMatchObject({ signatures: "off" });
    expect(parseBacktestArgs([])).not.toHaveProperty("signatures");
    expect(parseBacktestArgs(["--signatures", "OFF"])).toBe('--signatures: expected on or off (got "OFF")');
    expect(parseBacktestArgs(["--signatures"])).toBe("--signatures needs a value");
  });
});

describe("the no-op signer", () => {
  const wallet = "0x1111111111111111111111111111111111111111";
  const built = buildOrder({
    contracts: {
      chainId: 1,
      domain: { name: "Exchange", version: "1" },
      exchange: { binary: "0x2222222222222222222222222222222222222222", negRisk: "0x3333333333333333333333333333333333333333" },
    },
    market: { symbol: "M", yesTokenId: "1", noTokenId: "2", feeTakerBps: 0, negRiskEligible: false },
    intent: { outcome: 0, side: "BUY", price: 500_000n, quantity: 10_000_000n },
    wallet,
    vault: "0x4444444444444444444444444444444444444444",
    saltSource: () => 7n,
  });

  it("returns a fixed, obviously fake signature of the right shape and the builder's order hash", () => {
    expect(UNSIGNED_SIGNATURE).toMatch(/^0x0{128}1b$/);
    expect((UNSIGNED_SIGNATURE.length - 2) / 2).toBe(65);
    const s = new UnsignedOrderSigner(wallet).signBuiltOrderNow(built);
    expect(s).toEqual({ signature: UNSIGNED_SIGNATURE, orderHash: built.orderHash });
  });

  it("refuses an order of another wallet and a malformed address, as the real signer does", () => {
    expect(() => new UnsignedOrderSigner("0x5555555555555555555555555555555555555555").signBuiltOrderNow(built)).toThrow(/is not this signer's wallet/);
    expect(() => new UnsignedOrderSigner("nope")).toThrow(/0x followed by 40 hex digits/);
  });

  it("signs nothing anyone could verify: the signature recovers to no address", async () => {
    const recovered = await recoverOrderSigner(built.struct, UNSIGNED_SIGNATURE, built.domain).catch(() => null);
    expect(recovered).toBeNull();
  });
});
