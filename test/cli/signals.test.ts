import { describe, expect, it } from "vitest";
import { processSignals, processStopSignals, SECOND_SIGNAL_EXIT, stopOnSignals, type SignalRegistrar } from "../../src/cli/signals.js";

/** A registrar the test fires by hand; `registered` is false again once unregistered. */
function manual(): { register: SignalRegistrar; fire: (signal: string) => void; registered: () => boolean } {
  let handler: ((signal: string) => void) | undefined;
  return {
    register: (h) => {
      handler = h;
      return () => (handler = undefined);
    },
    fire: (signal) => handler?.(signal),
    registered: () => handler !== undefined,
  };
}

describe("processSignals / processStopSignals", () => {
  it("adds one listener per signal, hands the handler the signal's name, and removes them on unregister", () => {
    const before = { int: process.listenerCount("SIGINT"), term: process.listenerCount("SIGTERM") };
    const seen: string[] = [];
    const unregister = processStopSignals((s) => seen.push(s));
    expect(process.listenerCount("SIGINT")).toBe(before.int + 1);
    expect(process.listenerCount("SIGTERM")).toBe(before.term + 1);
    // Call the listeners themselves (emitting a real SIGINT would reach the test runner's own).
    (process.listeners("SIGTERM").at(-1) as () => void)();
    (process.listeners("SIGINT").at(-1) as () => void)();
    expect(seen).toEqual(["SIGTERM", "SIGINT"]);
    unregister();
    expect(process.listenerCount("SIGINT")).toBe(before.int);
    expect(process.listenerCount("SIGTERM")).toBe(before.term);
  });

  it("listens to exactly the signals named", () => {
    const before = { usr2: process.listenerCount("SIGUSR2"), int: process.listenerCount("SIGINT") };
    const seen: string[] = [];
    const unregister = processSignals(["SIGUSR2"], (s) => seen.push(s));
    expect(process.listenerCount("SIGUSR2")).toBe(before.usr2 + 1);
    expect(process.listenerCount("SIGINT")).toBe(before.int);
    (process.listeners("SIGUSR2").at(-1) as () => void)();
    expect(seen).toEqual(["SIGUSR2"]);
    unregister();
    expect(process.listenerCount("SIGUSR2")).toBe(before.usr2);
  });
});

describe("stopOnSignals", () => {
  it("the first signal is said and requests the stop with its name; a second one says why and exits 130", async () => {
    const r = manual();
    const said: string[] = [];
    const exits: number[] = [];
    const stop = stopOnSignals(r.register, { onStop: (s) => said.push(`stop ${s}`), again: { exitNow: (c) => exits.push(c), say: (s) => said.push(`again ${s}`) } });
    expect(r.registered()).toBe(true);
    r.fire("SIGTERM");
    expect(await stop.requested).toBe("SIGTERM");
    expect(exits).toEqual([]);
    r.fire("SIGINT");
    expect(said).toEqual(["stop SIGTERM", "again SIGINT"]);
    expect(exits).toEqual([SECOND_SIGNAL_EXIT]);
    expect(SECOND_SIGNAL_EXIT).toBe(130);
    stop.unregister();
    expect(r.registered()).toBe(false);
  });

  it("`again` without `say` exits without a word", () => {
    const r = manual();
    const said: string[] = [];
    const exits: number[] = [];
    stopOnSignals(r.register, { onStop: (s) => said.push(s), again: { exitNow: (c) => exits.push(c) } });
    r.fire("SIGINT");
    r.fire("SIGINT");
    expect(said).toEqual(["SIGINT"]);
    expect(exits).toEqual([130]);
  });

  it("without `again` a second signal is taken as the first was and the first reason stands", async () => {
    const r = manual();
    const said: string[] = [];
    const stop = stopOnSignals(r.register, { onStop: (s) => said.push(s) });
    r.fire("SIGINT");
    r.fire("SIGTERM");
    expect(said).toEqual(["SIGINT", "SIGTERM"]);
    expect(await stop.requested).toBe("SIGINT");
  });

  it("request() stops without a signal; a later signal neither changes the reason nor exits", async () => {
    const r = manual();
    const said: string[] = [];
    const exits: number[] = [];
    const stop = stopOnSignals(r.register, { onStop: (s) => said.push(s), again: { exitNow: (c) => exits.push(c) } });
    stop.request("duration reached");
    r.fire("SIGINT");
    expect(await stop.requested).toBe("duration reached");
    expect(said).toEqual(["SIGINT"]);
    expect(exits).toEqual([]);
  });
});
