/**
 * Withdrawals of one wallet (src/api/withdrawals.ts, spec 4.7, 7.4) through the client on a
 * scripted transport: the owner's signed request body (its digest computed by hand), a request is
 * never retried blindly (only "nothing recorded" answers and connections that never carried it are
 * resent, with the same body), 200 business envelopes and 4xx refusals come back as `rejected`,
 * anything that may have been recorded as `unknown`; the reads and the cancel send what they should.
 */
import { describe, expect, it } from "vitest";
import type { DigestSigner } from "../../src/api/withdrawals.js";
import { signWithdrawalRequest } from "../../src/api/withdrawals.js";
import type { Hex } from "../../src/signing/types.js";
import { CONTRACTS, digestByHand } from "../signing/fixtures.js";
import { VAULT, WALLET, exampleWithdrawal } from "../wire/fixtures.js";
import { collect, envelope, json, rateLimited, refused, rejectionOf, reset, settle, timeout } from "./fake-transport.js";
import { harness } from "./helpers.js";

const DESTINATION = "0x1111111254eeb25477b68fb85ed929f73a960582";
const SIGNATURE: Hex = `0x${"5a".repeat(65)}`;
const BODY = { vault: VAULT, destination: DESTINATION, amount: "250.5", nonce: "1", deadline: "1795000000", signature: SIGNATURE };
const REQUEST = "POST /api/withdrawals/request";

/** A signer that records the digest it was asked to sign and answers a fixed signature. */
function recordingSigner(): DigestSigner & { digests: Hex[] } {
  const digests: Hex[] = [];
  return { address: WALLET, digests, signDigest: (d) => (digests.push(d), Promise.resolve(SIGNATURE)) };
}

describe("signWithdrawalRequest", () => {
  it("signs Withdrawal(vault, destination, amount in micros, nonce, deadline) under the vault's domain", async () => {
    const signer = recordingSigner();
    const body = await signWithdrawalRequest(signer, CONTRACTS, { vault: VAULT, destination: DESTINATION, amount: "250.5", nonce: 1n, deadline: 1_795_000_000n });
    expect(body).toEqual(BODY);
    const domain = { name: CONTRACTS.domain.name, version: CONTRACTS.domain.version, chainId: CONTRACTS.chainId, verifyingContract: VAULT };
    expect(signer.digests).toEqual([
      digestByHand(domain, "Withdrawal(address vault,address destination,uint256 amount,uint256 nonce,uint256 deadline)", [
        { type: "address", value: VAULT },
        { type: "address", value: DESTINATION },
        { type: "uint256", value: 250_500_000n },
        { type: "uint256", value: 1n },
        { type: "uint256", value: 1_795_000_000n },
      ]),
    ]);
  });

  it("writes the amount as the shortest decimal, from micros or from text", async () => {
    const amountOf = async (amount: string | bigint): Promise<string> =>
      (await signWithdrawalRequest(recordingSigner(), CONTRACTS, { vault: VAULT, destination: DESTINATION, amount, nonce: 9n, deadline: 0n })).amount;
    expect(await amountOf(12_500_000n)).toBe("12.5");
    expect(await amountOf(250_000_000n)).toBe("250");
    expect(await amountOf(1n)).toBe("0.000001");
    expect(await amountOf("012.50")).toBe("12.5");
  });

  it("the same intent signs the same digest; another amount another one", async () => {
    const signer = recordingSigner();
    const intent = { vault: VAULT, destination: DESTINATION, amount: "250.5", nonce: 1n, deadline: 1_795_000_000n };
    await signWithdrawalRequest(signer, CONTRACTS, intent);
    await signWithdrawalRequest(signer, CONTRACTS, { ...intent, amount: 250_500_000n });
    await signWithdrawalRequest(signer, CONTRACTS, { ...intent, amount: "250.500001" });
    expect(signer.digests[0]).toBe(signer.digests[1]);
    expect(signer.digests[2]).not.toBe(signer.digests[0]);
  });
});

describe("WithdrawalsApi.request", () => {
  it("accepted: the record, one request carrying the key, the wallet and the body as given", async () => {
    const { clock, transport, client } = harness();
    const record = exampleWithdrawal({ status: "PENDING", txHash: null, reason: null });
    transport.enqueue(json(200, { ...record, vaultAddress: VAULT, fee: "0.5", nonce: "1", deadline: "1795000000" }));
    const r = await settle(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(r.outcome).toBe("accepted");
    expect(r.outcome === "accepted" && r.withdrawal.id).toBe(record.id);
    expect(transport.paths()).toEqual([REQUEST]);
    const sent = transport.requests[0]!;
    expect(JSON.parse(sent.body!)).toEqual(BODY);
    expect(sent.headers["x-user-wallet"]).toBe(WALLET);
    expect(sent.headers["x-api-key"]).toBeDefined();
  });

  it("refuses a malformed body before sending, naming the field", async () => {
    const { transport, client } = harness();
    const error = await client
      .forWallet(WALLET)
      .withdrawals.request({ ...BODY, amount: "0", destination: "nowhere" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ source: "local", code: "invalid_request", handling: "fix_request", attempts: 0 });
    expect((error as Error).message).toContain("request refused before sending: ");
    expect((error as Error).message).toContain("destination: expected a 0x-prefixed 20-byte hex address");
    expect((error as Error).message).toContain("amount: expected an amount greater than 0");
    expect((error as { details: unknown }).details).toEqual({ fields: ["destination", "amount"] });
    expect(transport.requests).toHaveLength(0);
  });

  it("sends a malformed body anyway when request validation is off", async () => {
    const { clock, transport, client } = harness({ validateRequests: false });
    transport.enqueue(envelope(400, "invalid_amount", "amount must be positive"));
    const r = await settle(clock, client.forWallet(WALLET).withdrawals.request({ ...BODY, amount: "0" }));
    expect(r).toMatchObject({ outcome: "rejected", code: "invalid_amount", status: 400 });
    expect(transport.requests).toHaveLength(1);
  });

  it("a 200 business envelope (destination_not_cleared) is rejected with its code", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { code: "destination_not_cleared", message: "new destination" }));
    const r = await settle(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(r).toMatchObject({ outcome: "rejected", code: "destination_not_cleared", handling: "business_reject", status: 200 });
    expect(transport.requests).toHaveLength(1);
  });

  it("4xx refusals are rejected and sent once: nonce_reused, wallet_mismatch", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(409, "nonce_reused", "nonce used with other content"), envelope(401, "wallet_mismatch", "not your vault"));
    const me = client.forWallet(WALLET).withdrawals;
    expect(await settle(clock, me.request(BODY))).toMatchObject({ outcome: "rejected", code: "nonce_reused", status: 409 });
    expect(await settle(clock, me.request(BODY))).toMatchObject({ outcome: "rejected", code: "wallet_mismatch", status: 401 });
    expect(transport.requests).toHaveLength(2);
  });

  it("a refused API key is thrown, not returned", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(401, "invalid_api_key", "bad key"));
    const error = await rejectionOf(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(error).toMatchObject({ code: "invalid_api_key", handling: "auth" });
  });

  it("a timeout or a reset after sending is unknown, never resent, and keeps the nonce to resolve it", async () => {
    for (const lost of [timeout(), reset()]) {
      const { clock, transport, client } = harness();
      transport.enqueue(lost);
      const r = await settle(clock, client.forWallet(WALLET).withdrawals.request(BODY));
      expect(r.outcome).toBe("unknown");
      expect(r.outcome === "unknown" && r.nonce).toBe("1");
      expect(r.outcome === "unknown" && r.lastError.maybeDelivered).toBe(true);
      expect(transport.requests).toHaveLength(1);
    }
  });

  it("a 500 may have been recorded: unknown after one request", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(500, "internal_error", "boom"));
    const r = await settle(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(r).toMatchObject({ outcome: "unknown", nonce: "1", lastError: { handling: "unknown_outcome", status: 500 } });
    expect(transport.requests).toHaveLength(1);
  });

  it("a 200 that is not a record and carries no code is unknown (the request may exist)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { id: "not-a-record" }));
    const r = await settle(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(r).toMatchObject({ outcome: "unknown", lastError: { source: "schema", handling: "unknown_outcome" } });
  });

  it("a connection that never carried the request is resent with the very same body", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(refused(), json(200, exampleWithdrawal({ status: "PENDING" })));
    const r = await settle(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(r.outcome).toBe("accepted");
    expect(transport.paths()).toEqual([REQUEST, REQUEST]);
    expect(transport.requests[1]!.body).toBe(transport.requests[0]!.body);
  });

  it("refused on every try: thrown after the resends (certainly not recorded)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(refused(), refused(), refused(), refused());
    const error = await rejectionOf(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(error).toMatchObject({ maybeDelivered: false });
    expect(transport.requests).toHaveLength(4); // the first send and maxResends (3) resends
  });

  it("shard_owner_unavailable recorded nothing: resent after Retry-After; still busy after the resends, thrown", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(503, "shard_owner_unavailable", "restarting", { retryAfterSec: 2 }), json(200, exampleWithdrawal()));
    const r = await settle(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(r.outcome).toBe("accepted");
    expect(transport.requests.map((q) => q.at - transport.requests[0]!.at)).toEqual([0, 2_000]);

    const busy = harness();
    for (let i = 0; i < 4; i++) busy.transport.enqueue(envelope(503, "shard_owner_unavailable", "restarting", { retryAfterSec: 1 }));
    const error = await rejectionOf(busy.clock, busy.client.forWallet(WALLET).withdrawals.request(BODY));
    expect(error).toMatchObject({ code: "shard_owner_unavailable" });
    expect(busy.transport.requests).toHaveLength(4);
  });

  it("a 429 was not processed: waited out and resent", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(rateLimited(3), json(200, exampleWithdrawal()));
    const r = await settle(clock, client.forWallet(WALLET).withdrawals.request(BODY));
    expect(r.outcome).toBe("accepted");
    expect(transport.requests[1]!.at - transport.requests[0]!.at).toBe(3_000);
  });
});

describe("WithdrawalsApi reads and cancel", () => {
  it("list follows nextCursor and yields each withdrawal once", async () => {
    const { clock, transport, client } = harness();
    const a = exampleWithdrawal({ id: "00000000-0000-4000-8000-00000000000a" });
    const b = exampleWithdrawal({ id: "00000000-0000-4000-8000-00000000000b" });
    transport.enqueue(json(200, { walletAddress: WALLET, withdrawals: [a, b], nextCursor: "c2" }), json(200, { walletAddress: WALLET, withdrawals: [b], nextCursor: null }));
    const rows = await settle(clock, collect(client.forWallet(WALLET).withdrawals.list({ limit: 2 })));
    expect(rows.map((w) => w.id)).toEqual([a.id, b.id]);
    expect(transport.paths()).toEqual(["GET /api/me/withdrawals?limit=2", "GET /api/me/withdrawals?cursor=c2&limit=2"]);
  });

  it("get, fee (with and without amount) and deposit sources send the wallet header to their paths", async () => {
    const { clock, transport, client } = harness();
    const w = exampleWithdrawal();
    transport.enqueue(
      json(200, w),
      json(200, { walletAddress: WALLET, fee: "0.5" }),
      json(200, { walletAddress: WALLET, fee: "0.5", amount: "100", netAmount: "99.5" }),
      json(200, { walletAddress: WALLET, sources: [DESTINATION], pinned: null }),
    );
    const me = client.forWallet(WALLET).withdrawals;
    expect((await settle(clock, me.get(w.id))).data.id).toBe(w.id);
    expect((await settle(clock, me.fee())).data.fee).toBe("0.5");
    expect((await settle(clock, me.fee({ amount: "100" }))).data.netAmount).toBe("99.5");
    expect((await settle(clock, me.depositSources())).data.sources).toEqual([DESTINATION]);
    expect(transport.paths()).toEqual([`GET /api/me/withdrawals/${w.id}`, "GET /api/me/withdrawals/fee", "GET /api/me/withdrawals/fee?amount=100", "GET /api/me/withdrawals/deposit-sources"]);
    expect(transport.requests.every((r) => r.headers["x-user-wallet"] === WALLET)).toBe(true);
  });

  it("a read whose answer is not the documented shape is an error naming the field", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { walletAddress: WALLET, fee: 0.5 }));
    const error = await rejectionOf(clock, client.forWallet(WALLET).withdrawals.fee());
    expect(error).toMatchObject({ source: "schema" });
    expect((error as Error).message).toContain("fee: ");
  });

  it("cancel: the CANCELLED record; 409 invalid_state is Rejected; a 500 is retried like a read", async () => {
    const { clock, transport, client } = harness();
    const w = exampleWithdrawal({ status: "CANCELLED", reason: "cancelled by the user" });
    transport.enqueue(envelope(500, "internal_error"), json(200, w), envelope(409, "invalid_state", "already submitted"));
    const me = client.forWallet(WALLET).withdrawals;
    const ok = await settle(clock, me.cancel(w.id));
    expect(ok).toMatchObject({ ok: true, data: { status: "CANCELLED" } });
    const refusedCancel = await settle(clock, me.cancel(w.id));
    expect(refusedCancel).toMatchObject({ ok: false, code: "invalid_state", status: 409 });
    expect(transport.paths()).toEqual(Array(3).fill(`POST /api/me/withdrawals/${w.id}/cancel`));
  });
});
