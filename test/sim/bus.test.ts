/**
 * The user-frame bus: per-wallet subscriptions keyed case-insensitively, synchronous delivery in
 * publish order, unsubscribe (idempotent, safe during a delivery) and the subscriber counts.
 */
import { describe, expect, it } from "vitest";
import { UserFrameBus, type UserFrame } from "../../src/sim/bus.js";

const A = "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B = "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const frame = (type: string, serverTs = 1): UserFrame => ({ type, serverTs });

describe("UserFrameBus", () => {
  it("delivers a wallet's frames synchronously, in publish order, to that wallet's listeners only", () => {
    const bus = new UserFrameBus();
    const got: string[] = [];
    bus.subscribe(A, (f) => got.push(`a:${f.type}`));
    bus.subscribe(B, (f) => got.push(`b:${f.type}`));
    bus.publish(A, frame("one"));
    expect(got).toEqual(["a:one"]); // delivered before publish returned
    bus.publish(B, frame("two"));
    bus.publish(A, frame("three"));
    expect(got).toEqual(["a:one", "b:two", "a:three"]);
  });

  it("matches wallets case-insensitively on subscribe, publish and count", () => {
    const bus = new UserFrameBus();
    const got: UserFrame[] = [];
    bus.subscribe(A.toUpperCase().replace("0X", "0x"), (f) => got.push(f));
    const f = frame("order_placed", 42);
    bus.publish(A, f);
    expect(got).toEqual([f]);
    expect(got[0]).toBe(f); // the frame object itself, not a copy
    expect(bus.subscriberCount(A.toUpperCase())).toBe(1);
  });

  it("calls every listener of a wallet, in subscription order", () => {
    const bus = new UserFrameBus();
    const order: number[] = [];
    bus.subscribe(A, () => order.push(1));
    bus.subscribe(A, () => order.push(2));
    bus.publish(A, frame("x"));
    expect(order).toEqual([1, 2]);
  });

  it("publishing to a wallet nobody follows does nothing", () => {
    const bus = new UserFrameBus();
    expect(() => bus.publish(B, frame("x"))).not.toThrow();
    expect(bus.subscriberCount()).toBe(0);
  });

  it("unsubscribe stops delivery, is idempotent and leaves the wallet's other listeners", () => {
    const bus = new UserFrameBus();
    const got: string[] = [];
    const off1 = bus.subscribe(A, (f) => got.push(`1:${f.type}`));
    bus.subscribe(A, (f) => got.push(`2:${f.type}`));
    off1();
    off1();
    bus.publish(A, frame("x"));
    expect(got).toEqual(["2:x"]);
    expect(bus.subscriberCount(A)).toBe(1);
  });

  it("a listener that unsubscribes during a delivery does not stop the others getting that frame", () => {
    const bus = new UserFrameBus();
    const got: string[] = [];
    const off = bus.subscribe(A, (f) => {
      got.push(`1:${f.type}`);
      off();
    });
    bus.subscribe(A, (f) => got.push(`2:${f.type}`));
    bus.publish(A, frame("x"));
    bus.publish(A, frame("y"));
    expect(got).toEqual(["1:x", "2:x", "2:y"]);
  });

  it("counts subscribers per wallet and in total, dropping a wallet whose last listener left", () => {
    const bus = new UserFrameBus();
    const offA1 = bus.subscribe(A, () => {});
    const offA2 = bus.subscribe(A, () => {});
    bus.subscribe(B, () => {});
    expect([bus.subscriberCount(A), bus.subscriberCount(B), bus.subscriberCount()]).toEqual([2, 1, 3]);
    offA1();
    offA2();
    expect([bus.subscriberCount(A), bus.subscriberCount()]).toEqual([0, 1]);
    // A fresh subscription after the wallet's entry was dropped works as before.
    const got: string[] = [];
    bus.subscribe(A, (f) => got.push(f.type));
    bus.publish(A, frame("again"));
    expect(got).toEqual(["again"]);
  });

  it("the same function subscribed twice is one listener (a set)", () => {
    const bus = new UserFrameBus();
    let n = 0;
    const l = (): void => {
      n++;
    };
    bus.subscribe(A, l);
    bus.subscribe(A, l);
    bus.publish(A, frame("x"));
    expect([n, bus.subscriberCount(A)]).toEqual([1, 1]);
  });
});
