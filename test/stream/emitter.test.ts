import { describe, expect, it } from "vitest";
import { TypedEmitter } from "../../src/stream/index.js";

describe("TypedEmitter", () => {
  it("isolates a throwing listener, supports once and unsubscribe", () => {
    const errors: string[] = [];
    const e = new TypedEmitter<{ tick: number }>((event, err) => errors.push(`${String(event)}:${String(err)}`));
    const seen: number[] = [];
    e.on("tick", () => {
      throw new Error("x");
    });
    const off = e.on("tick", (n) => seen.push(n));
    e.once("tick", (n) => seen.push(n * 100));
    e.emit("tick", 1);
    e.emit("tick", 2);
    off();
    e.emit("tick", 3);
    expect(seen).toEqual([1, 100, 2]);
    expect(errors).toEqual(["tick:Error: x", "tick:Error: x", "tick:Error: x"]);
    expect(e.listenerCount("tick")).toBe(1);
  });
});
