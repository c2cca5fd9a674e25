/**
 * The vault emergency (src/sim/desk/emergency.ts): cancels the wallet's open orders (with the
 * order_cancelled frames cancel-all sends) and its cancellable withdrawals (funds back), leaves a
 * SUBMITTED withdrawal and other wallets alone, freezes new withdrawal requests but not trading, and
 * on a repeat keeps the first requestedAt while reporting what it cancelled this time. Signatures are
 * not checked here (the simulator's verifySignatures is off): the emergency does not look at them.
 */
import { describe, expect, it } from "vitest";
import { vaultEmergency } from "../../../src/sim/desk/emergency.js";
import { withdrawalDesk } from "../../../src/sim/desk/withdrawals.js";
import { setup, T0, u, type Harness } from "./harness.js";

const ARS = "ARS-CHE-ARS";
const iso = (ms: number): string => new Date(ms).toISOString();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
type Json = any;

async function place(h: Harness, w: number, price: string): Promise<string> {
  const { body } = await h.order(w, { symbol: ARS, outcome: 0, side: "BUY", price, quantity: "1" });
  const r = await h.call("POST", "/api/orders/place", { body, wallet: w });
  const id = (r.body as { orderId?: string }).orderId;
  if (r.status !== 201 || id === undefined) throw new Error(`placement refused: ${JSON.stringify(r.body)}`);
  return id;
}

let nonce = 0;
function withdraw(h: Harness, w: number, amount: string): Json {
  const wallet = h.wallets[w]!;
  const body = { vault: wallet.vault, destination: wallet.address, amount, nonce: String(++nonce), deadline: String(Math.floor(T0 / 1000) + 86_400), signature: "0x00" };
  return withdrawalDesk(h.sim).request(body, { wallet: wallet.address }, h.clock.now()).body;
}

function world() {
  const h = setup({ sim: { verifySignatures: false } });
  return { h, me: h.wallets[0]!.address, caller: { wallet: h.wallets[0]!.address } };
}

describe("vaultEmergency", () => {
  it("cancels the wallet's open orders and cancellable withdrawals, leaving a SUBMITTED one and other wallets alone", async () => {
    const { h, me, caller } = world();
    const submitted = withdraw(h, 0, "7");
    await h.clock.advance(15_000); // co-signed at +10 s, broadcast at +15 s
    const pending = withdraw(h, 0, "10");
    const o1 = await place(h, 0, "0.30");
    const o2 = await place(h, 0, "0.31");
    const other = await place(h, 1, "0.32");
    // 10000 - 7 - 10 - 0.30 - 0.31 - fee locks (1% max fee 0.0025 per order)
    expect(h.sim.engine.balance(me).available).toBe(u("9982.385"));

    const a = vaultEmergency(h.sim, caller, h.clock.now());
    expect(a).toEqual({
      status: 200,
      body: {
        walletAddress: me,
        vaultAddress: h.wallets[0]!.vault.toLowerCase(),
        status: "EMERGENCY",
        requestedAt: iso(T0 + 15_000),
        cancelledOrders: [o1, o2],
        cancelledWithdrawals: [pending.id],
      },
    });
    // The pending withdrawal's 10 and both order locks are back; the submitted 7 stays out.
    expect(h.sim.engine.balance(me).available).toBe(u("9993"));
    expect(h.frames(0).filter((f) => f.type === "order_cancelled").map((f) => f.orderId)).toEqual([o1, o2]);
    const rows = withdrawalDesk(h.sim).all(h.clock.now());
    expect(rows.map((r) => [r.id, r.status, r.reason])).toEqual([
      [submitted.id, "SUBMITTED", null],
      [pending.id, "CANCELLED", "vault emergency"],
    ]);
    expect(h.sim.engine.isLive(other)).toBe(true);
    expect(withdrawalDesk(h.sim).isFrozen(h.wallets[1]!.address)).toBe(false);
  });

  it("freezes new withdrawal requests (409 invalid_state) but not trading", async () => {
    const { h, me, caller } = world();
    vaultEmergency(h.sim, caller, T0);
    expect(withdrawalDesk(h.sim).isFrozen(me)).toBe(true);
    expect(withdraw(h, 0, "1")).toMatchObject({ status: 409, error: { code: "invalid_state" } });
    expect(h.sim.engine.isLive(await place(h, 0, "0.30"))).toBe(true);
  });

  it("a repeat answers the first requestedAt with what it cancelled this time", async () => {
    const { h, caller } = world();
    const first = vaultEmergency(h.sim, caller, T0).body as Json;
    expect([first.cancelledOrders, first.cancelledWithdrawals]).toEqual([[], []]);
    await h.clock.advance(60_000);
    const later = await place(h, 0, "0.30");
    const again = vaultEmergency(h.sim, caller, h.clock.now()).body as Json;
    expect(again).toMatchObject({ status: "EMERGENCY", requestedAt: iso(T0), cancelledOrders: [later], cancelledWithdrawals: [] });
  });

  it("keeps its first-request time per wallet and per simulator", () => {
    const a = world();
    vaultEmergency(a.h.sim, a.caller, T0);
    const otherWallet = vaultEmergency(a.h.sim, { wallet: a.h.wallets[1]!.address }, T0 + 5_000).body as Json;
    expect(otherWallet.requestedAt).toBe(iso(T0 + 5_000));
    const b = world();
    expect((vaultEmergency(b.h.sim, b.caller, T0 + 9_000).body as Json).requestedAt).toBe(iso(T0 + 9_000));
    expect(withdrawalDesk(b.h.sim).isFrozen(b.h.wallets[1]!.address)).toBe(false);
  });
});
