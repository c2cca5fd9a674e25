/**
 * The /ws/user gateway (src/sim/ws/hub.ts): upgrade authentication (header or ?key=, refusals as
 * HTTP envelopes, wallet binding) and closing every session at shutdown. The per-connection
 * protocol and WS faults are in session.test.ts.
 */
import { describe, expect, it } from "vitest";
import { KEYS, makePipeline, W1, W2, W3 } from "../http/helpers.js";
import { connect } from "./helpers.js";

describe("WsHub.upgrade", () => {
  it("accepts the key in X-Api-Key or in ?key=, the header winning", () => {
    const { hub } = makePipeline([]);
    const viaHeader = hub.upgrade({ url: "/ws/user", headers: { "x-api-key": KEYS.mm, "x-user-wallet": W1 } });
    expect(viaHeader.ok && viaHeader.auth.wallet).toBe(W1);
    const viaQuery = hub.upgrade({ url: `/ws/user?key=${KEYS.mm}`, headers: { "X-User-Wallet": W1 } });
    expect(viaQuery.ok && viaQuery.auth.partner.id).toBe("mm");
    const both = hub.upgrade({ url: `/ws/user?key=${KEYS.mm}`, headers: { "X-Api-Key": KEYS.revoked, "X-User-Wallet": W1 } });
    expect(!both.ok && JSON.parse(both.response.bodyText).error.code).toBe("api_key_revoked");
  });

  it("refuses with the HTTP status, the envelope and the common headers", () => {
    const { hub } = makePipeline([]);
    const none = hub.upgrade({ url: "/ws/user", headers: {} });
    expect(none.ok).toBe(false);
    if (none.ok) return;
    expect(none.response.status).toBe(401);
    const body = JSON.parse(none.response.bodyText);
    expect(body.error.code).toBe("auth_required");
    expect(body.error.trace_id).toBe(none.response.headers["X-Trace-Id"]);
    expect(none.response.headers["X-API-Version"]).toBe("2026-10-09");
    const path = hub.upgrade({ url: "/ws/other", headers: { "X-Api-Key": KEYS.mm, "X-User-Wallet": W1 } });
    expect(!path.ok && path.response.status).toBe(404);
  });

  it("binds a multi_wallet partner with an associated wallet to it, and a single_wallet partner to its wallet", () => {
    const { hub } = makePipeline([]);
    const assoc = hub.upgrade({ url: "/ws/user", headers: { "X-Api-Key": KEYS.assoc, "X-User-Wallet": W1 } });
    expect(assoc.ok && assoc.auth.wallet).toBe(W3);
    const single = hub.upgrade({ url: "/ws/user", headers: { "X-Api-Key": KEYS.single } });
    expect(single.ok && single.auth.wallet).toBe(W2);
  });
});

describe("WsHub.closeAll", () => {
  it("closeAll closes every session with 1001", () => {
    const { hub, sink, sim } = connect();
    hub.closeAll();
    expect([sink.ended, sink.closeCode]).toEqual(["close", 1001]);
    expect(hub.size).toBe(0);
    expect(sim.bus.subscriberCount()).toBe(0);
  });
});
