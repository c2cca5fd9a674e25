/**
 * Sign and place an order, handle the three placement outcomes, then cancel it until final.
 * Run: `npx tsx examples/client/place-order.ts` (against a real platform it places a tiny
 * post-only BUY at 0.01 on the first OPEN market, or on PM_MARKET, and cancels it).
 */
import type { PlaceOutcome, PlaceRequestBody, WalletClient } from "../../src/api/index.js";
import { parseMicros } from "../../src/core/money.js";
import { buildOrder, placeOrderBody } from "../../src/signing/index.js";
import { connect, isMain } from "./setup.js";

export async function main(): Promise<{ outcome: PlaceOutcome["outcome"]; orderId: string | undefined; final: string | undefined }> {
  const { client, wallet, signer, clock, close } = connect();
  try {
    const me = client.forWallet(wallet);

    // What signing needs: the EIP-712 domain, the market's fee and tokens, the wallet's vault.
    const contracts = (await client.platform.contracts()).data;
    const defaultFee = (await client.platform.feeConfig()).data.defaultFeeTakerBps;
    const wanted = process.env.PM_MARKET;
    let market;
    for await (const m of client.markets.iterate()) {
      if (wanted ? m.symbol === wanted : m.status === "OPEN") {
        market = m;
        break;
      }
    }
    if (market === undefined) throw new Error("no OPEN market to trade");
    const vault = (await me.portfolio.vault()).data.vaultAddress;

    // Build (CEIL/FLOOR amounts, fee, token, expiration), hash and sign. Prices and sizes are micros.
    const built = buildOrder({
      contracts,
      market,
      intent: { outcome: 0, side: "BUY", price: parseMicros("0.01"), quantity: parseMicros("5"), postOnly: true },
      wallet,
      vault,
      defaultFeeRateBps: defaultFee,
    });
    const { signature } = await signer.signOrder(built.struct, built.domain);
    // A clientOrderId makes every resend of this body the same order on the platform.
    const body: PlaceRequestBody = placeOrderBody(built, { signature, clientOrderId: `example-${clock.now()}` });

    const out = await me.orders.place(body, { orderHash: built.orderHash });
    let orderId: string | undefined;
    switch (out.outcome) {
      case "accepted":
        orderId = out.orderId;
        console.log(`accepted: ${out.orderId} ${out.status}`);
        break;
      case "rejected":
        console.log(`rejected: ${out.code} (${out.handling}): ${out.message}`);
        break;
      case "unknown":
        // It may exist: never place a new one. Look it up; resend the SAME body if it is not there.
        orderId = await resolveUnknown(me, body, out.lastError.code);
        break;
    }
    if (orderId === undefined) return { outcome: out.outcome, orderId, final: undefined };

    // Cancel, repeating after Retry-After while the platform answers cancel_pending.
    const report = await me.orders.cancelUntilFinal([orderId], { deadlineMs: 30_000 });
    const final = report.final[0]?.status ?? report.final[0]?.code;
    console.log(`cancel: ${final ?? "still pending"} after ${report.rounds} round(s)`);
    return { outcome: out.outcome, orderId, final };
  } finally {
    close();
  }
}

async function resolveUnknown(me: WalletClient, body: PlaceRequestBody, why: string): Promise<string | undefined> {
  console.log(`unknown (${why}): looking it up by clientOrderId ${body.clientOrderId}`);
  const found = await me.orders.lookup({ clientOrderId: body.clientOrderId! });
  if (found.data !== null) return found.data.id;
  const again = await me.orders.place(body); // same signed order, same clientOrderId: never a duplicate
  return again.outcome === "accepted" ? again.orderId : undefined;
}

if (isMain(import.meta.url)) await main();
