/**
 * Walk a wallet's open orders with the keyset cursor (newest first, each order once), then the
 * same walk restricted to one market. Against the simulator it first places a few orders so there
 * is something to walk. Run: `npx tsx examples/client/walk-open-orders.ts`.
 */
import { parseMicros } from "../../src/core/money.js";
import { buildOrder, placeOrderBody } from "../../src/signing/index.js";
import { connect, isMain, type Connection } from "./setup.js";

export async function main(): Promise<{ all: number; inFirstMarket: number }> {
  const conn = connect();
  try {
    if (conn.target === "simulator") await seed(conn, 7);
    const me = conn.client.forWallet(conn.wallet);

    // `open()` follows nextCursor until it is null; small pages only to show the paging.
    let all = 0;
    let firstMarket: string | undefined;
    for await (const o of me.orders.open({ limit: 3 })) {
      all++;
      firstMarket ??= o.marketId;
      console.log(`${o.id} ${o.marketId} ${o.side} ${o.remainingQty} @ ${o.price} (${o.status})`);
    }

    // Page by page, with a filter: each page says where the next (older) one starts.
    let inFirstMarket = 0;
    if (firstMarket !== undefined) {
      for await (const page of me.orders.openPages({ marketId: firstMarket, limit: 2 })) {
        inFirstMarket += page.data.orders.length;
        console.log(`page of ${page.data.orders.length}, next cursor ${page.data.nextCursor ?? "none (last page)"}`);
      }
    }
    console.log(`${all} open orders, ${inFirstMarket} in ${firstMarket ?? "-"}`);
    return { all, inFirstMarket };
  } finally {
    conn.close();
  }
}

/** A few resting post-only BUYs over three markets. */
async function seed(conn: Connection, n: number): Promise<void> {
  const { client, wallet, signer } = conn;
  const me = client.forWallet(wallet);
  const contracts = (await client.platform.contracts()).data;
  const vault = (await me.portfolio.vault()).data.vaultAddress;
  const markets = (await client.markets.list()).data.markets.filter((m) => m.status === "OPEN").slice(0, 3);
  for (let i = 0; i < n; i++) {
    const market = markets[i % markets.length]!;
    const intent = { outcome: 0, side: "BUY" as const, price: parseMicros(`0.0${1 + i}`), quantity: parseMicros("2"), postOnly: true };
    const built = buildOrder({ contracts, market, intent, wallet, vault });
    const { signature } = await signer.signOrder(built.struct, built.domain);
    await me.orders.place(placeOrderBody(built, { signature, clientOrderId: `walk-example-${i}` }));
  }
}

if (isMain(import.meta.url)) await main();
