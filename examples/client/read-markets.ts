/**
 * Read markets: the open set, one market's details and its order book (public endpoints, no key
 * needed). Run: `npx tsx examples/client/read-markets.ts`.
 */
import { connect, isMain } from "./setup.js";

export async function main(): Promise<{ symbols: string[]; book: { bids: number; asks: number } }> {
  const { client, close } = connect();
  try {
    // Every open market (offset paging is followed for you).
    const symbols: string[] = [];
    for await (const m of client.markets.iterate({ limit: 100 })) {
      symbols.push(m.symbol);
      // A null feeTakerBps means the platform's default (GET /api/platform/fee-config).
      const fee = m.feeTakerBps === null ? "default fee" : `fee ${m.feeTakerBps} bps`;
      console.log(`${m.symbol.padEnd(14)} ${m.status.padEnd(11)} ${fee.padEnd(11)}  ${m.title}`);
    }

    // One market by slug, then its book for outcome 0 (best levels first).
    const first = (await client.markets.list({ limit: 1 })).data.markets[0];
    if (first === undefined) return { symbols, book: { bids: 0, asks: 0 } };
    const market = (await client.markets.get(first.slug)).data;
    const book = (await client.markets.orderbook(market.symbol, 0)).data;
    console.log(`${market.symbol}: ${book.bids.length} bid levels, ${book.asks.length} ask levels`);
    return { symbols, book: { bids: book.bids.length, asks: book.asks.length } };
  } finally {
    close();
  }
}

if (isMain(import.meta.url)) await main();
