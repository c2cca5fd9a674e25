/**
 * The platform state the public platform routes report (src/sim/http/routes/public-state.ts):
 * one state per Simulator, the freeze flag with its reason and change time, notices added,
 * replaced by id, removed and filtered to those in force, and the named readiness checks.
 */
import { describe, expect, it } from "vitest";
import {
  activeNotices,
  platformState,
  putNotice,
  removeNotice,
  setFrozen,
  setReadyCheck,
  type SimNotice,
} from "../../../../src/sim/http/routes/public-state.js";
import { makeSim, T0 } from "../helpers.js";

const notice = (id: string, startsAtMs: number, endsAtMs: number | null, title = id): SimNotice => ({ id, severity: "info", title, message: `${title} message`, startsAtMs, endsAtMs });

describe("platformState", () => {
  it("starts unfrozen, without notices, with the catalogue and engine checks ready, stamped at the simulator's start", () => {
    const { sim } = makeSim();
    expect(platformState(sim)).toEqual({ frozen: false, reason: null, updatedAtMs: T0, notices: [], readyChecks: { catalogue: true, engine: true } });
  });

  it("is one state per simulator: the same object each time, another for another simulator", () => {
    const a = makeSim().sim;
    const b = makeSim().sim;
    expect(platformState(a)).toBe(platformState(a));
    setFrozen(a, true, "maintenance");
    expect(platformState(b).frozen).toBe(false);
  });
});

describe("setFrozen", () => {
  it("freezes with a reason at the clock's time, and unfreezing clears the reason", async () => {
    const { sim, clock } = makeSim();
    await clock.advance(5_000);
    setFrozen(sim, true, "maintenance");
    expect(platformState(sim)).toMatchObject({ frozen: true, reason: "maintenance", updatedAtMs: T0 + 5_000 });
    await clock.advance(1_000);
    setFrozen(sim, false, "ignored when unfreezing");
    expect(platformState(sim)).toMatchObject({ frozen: false, reason: null, updatedAtMs: T0 + 6_000 });
  });

  it("a freeze without a reason has reason null", () => {
    const { sim } = makeSim();
    setFrozen(sim, true);
    expect(platformState(sim)).toMatchObject({ frozen: true, reason: null });
  });
});

describe("notices", () => {
  it("putNotice adds, or replaces the notice with the same id (moving it to the end)", () => {
    const { sim } = makeSim();
    putNotice(sim, notice("a", T0, null));
    putNotice(sim, notice("b", T0, null));
    putNotice(sim, notice("a", T0, null, "a again"));
    expect(platformState(sim).notices.map((n) => [n.id, n.title])).toEqual([
      ["b", "b"],
      ["a", "a again"],
    ]);
  });

  it("removeNotice says whether there was one to remove", () => {
    const { sim } = makeSim();
    putNotice(sim, notice("a", T0, null));
    expect(removeNotice(sim, "a")).toBe(true);
    expect(removeNotice(sim, "a")).toBe(false);
    expect(platformState(sim).notices).toEqual([]);
  });

  it("activeNotices: started (start included), not ended (end excluded), in insertion order", () => {
    const { sim } = makeSim();
    putNotice(sim, notice("open-ended", T0 - 1, null));
    putNotice(sim, notice("future", T0 + 1, null));
    putNotice(sim, notice("ending", T0 - 10, T0 + 10));
    putNotice(sim, notice("over", T0 - 10, T0));
    putNotice(sim, notice("starting-now", T0, T0 + 1));
    expect(activeNotices(sim, T0).map((n) => n.id)).toEqual(["open-ended", "ending", "starting-now"]);
    expect(activeNotices(sim, T0 + 10).map((n) => n.id)).toEqual(["open-ended", "future"]);
  });
});

describe("setReadyCheck", () => {
  it("sets a named check, adding it when new", () => {
    const { sim } = makeSim();
    setReadyCheck(sim, "engine", false);
    setReadyCheck(sim, "feeds", true);
    expect(platformState(sim).readyChecks).toEqual({ catalogue: true, engine: false, feeds: true });
  });
});
