import { describe, expect, it } from "vitest";
import { parseClientFrame, parseServerFrame, subscribeMessage, type ServerFrameInput } from "../../src/wire/index.js";
import { ORDER_ID, SYMBOL, WALLET, YES_TOKEN } from "./fixtures.js";

const TS = 1_795_000_000_000;

function fill(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const frame: ServerFrameInput = {
    type: "user_fill",
    channel: "user_orders",
    serverTs: TS,
    walletAddress: WALLET,
    tradeId: "trd_1",
    orderId: ORDER_ID,
    clientOrderId: "mm1-abc-000001",
    marketId: SYMBOL,
    tokenId: YES_TOKEN,
    outcome: 0,
    side: "BUY",
    price: "0.55",
    quantity: "4",
    fee: "0",
    role: "maker",
    orderStatus: "PARTIAL",
    filledQty: "4",
    remainingQty: "6",
  };
  return { ...frame, ...overrides };
}

const orderEnded = (type: string) => ({
  type,
  channel: "user_orders",
  serverTs: TS,
  walletAddress: WALLET,
  orderId: ORDER_ID,
  clientOrderId: null,
  marketId: SYMBOL,
  originalQuantity: "10",
  remainingQty: "6",
  status: type === "order_expired" ? "EXPIRED" : "CANCELLED",
});

describe("parseServerFrame", () => {
  it("parses every known frame kind from text", () => {
    const frames: Record<string, unknown>[] = [
      {
        type: "order_placed",
        channel: "user_orders",
        serverTs: TS,
        walletAddress: WALLET,
        orderId: ORDER_ID,
        clientOrderId: "c1",
        marketId: SYMBOL,
        tokenId: YES_TOKEN,
        outcome: 0,
        side: "SELL",
        price: "0.6",
        originalQuantity: "10",
        remainingQty: "10",
        status: "OPEN",
      },
      orderEnded("order_cancelled"),
      orderEnded("order_expired"),
      fill(),
      { type: "subscribed", channel: "user_orders", serverTs: TS },
      { type: "ping", serverTs: TS },
      { type: "pong", serverTs: TS },
      { type: "error", code: "invalid_request", message: "unknown channel", serverTs: TS },
    ];
    for (const frame of frames) {
      const r = parseServerFrame(JSON.stringify(frame));
      expect(r.kind, String(frame.type)).toBe("frame");
      if (r.kind === "frame") expect(r.frame.type).toBe(frame.type);
    }
  });

  it("user_fill role: present is kept; missing or null means unknown, never taker", () => {
    const withRole = parseServerFrame(fill({ role: "taker" }));
    expect(withRole.kind === "frame" && withRole.frame.type === "user_fill" && withRole.frame.role).toBe("taker");
    const { role: _r, ...noRole } = fill();
    for (const input of [noRole, fill({ role: null })]) {
      const r = parseServerFrame(input);
      expect(r.kind).toBe("frame");
      if (r.kind === "frame" && r.frame.type === "user_fill") expect(r.frame.role).toBeUndefined();
    }
    const bad = parseServerFrame(fill({ role: "both" }));
    expect(bad).toMatchObject({ kind: "invalid" });
  });

  it("surfaces an unknown frame kind with its raw data instead of throwing", () => {
    const r = parseServerFrame('{"type":"market_resolved","marketId":"X","serverTs":1}');
    expect(r).toEqual({ kind: "unknown", type: "market_resolved", data: { type: "market_resolved", marketId: "X", serverTs: 1 } });
    // Inherited property names are not frame kinds.
    expect(parseServerFrame({ type: "toString" })).toMatchObject({ kind: "unknown", type: "toString" });
  });

  it("reports an invalid known frame with the bad field named", () => {
    const r = parseServerFrame(fill({ remainingQty: 6 }));
    expect(r.kind).toBe("invalid");
    if (r.kind === "invalid") expect(r.message).toMatch(/^user_fill: remainingQty: /);
    const c = parseServerFrame({ ...orderEnded("order_cancelled"), originalQuantity: undefined });
    expect(c.kind === "invalid" && c.message).toContain("originalQuantity");
  });

  it("reports non-JSON, non-object and type-less input as invalid", () => {
    expect(parseServerFrame("{not json")).toMatchObject({ kind: "invalid", message: "frame is not valid JSON" });
    expect(parseServerFrame("[1,2]")).toMatchObject({ kind: "invalid", message: "frame is not a JSON object" });
    expect(parseServerFrame({ serverTs: 1 })).toMatchObject({ kind: "invalid", message: expect.stringContaining("type") });
  });

  it("keeps extra keys on known frames", () => {
    const r = parseServerFrame({ type: "ping", serverTs: TS, seq: 9 });
    expect(r.kind === "frame" && r.frame).toMatchObject({ seq: 9 });
  });
});

describe("client frames", () => {
  it("parses subscribe and ping; strict on extra keys", () => {
    expect(parseClientFrame(JSON.stringify(subscribeMessage()))).toEqual({ kind: "frame", frame: { type: "subscribe", channel: "user_orders" } });
    expect(parseClientFrame('{"type":"ping"}')).toEqual({ kind: "frame", frame: { type: "ping" } });
    expect(parseClientFrame({ type: "subscribe", channel: "" })).toMatchObject({ kind: "invalid", message: expect.stringContaining("channel") });
    expect(parseClientFrame({ type: "ping", extra: 1 })).toMatchObject({ kind: "invalid", message: expect.stringContaining("extra") });
    expect(parseClientFrame({ type: "unsubscribe" })).toMatchObject({ kind: "unknown" });
  });
});
