/**
 * Vault deployment, the signed-op flow of spec 4.8 (src/api/vault.ts), through the client on a
 * scripted transport: the paths and bodies sent with the wallet's header, answers passed through as
 * records, and the write policy (never retried blindly: a business refusal is a result, a 429 is
 * waited out and resent, a 5xx throws once with an unknown outcome).
 */
import { describe, expect, it } from "vitest";
import { WALLET } from "../wire/fixtures.js";
import { envelope, json, rateLimited, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

describe("VaultApi", () => {
  it("deploySign posts an empty body by default; deploySubmit posts what it is given; both carry the wallet", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { typedData: { primaryType: "Deploy" } }), json(200, { txHash: "0xab", status: "SUBMITTED" }));
    const vault = client.forWallet(WALLET).vault;
    const signed = await settle(clock, vault.deploySign());
    expect(signed).toMatchObject({ ok: true, data: { typedData: { primaryType: "Deploy" } } });
    const submitted = await settle(clock, vault.deploySubmit({ signature: "0x01", nonce: 7 }));
    expect(submitted).toMatchObject({ ok: true, data: { txHash: "0xab", status: "SUBMITTED" } });
    expect(transport.requests.map((r) => [r.method, r.path, r.body, r.headers["x-user-wallet"]])).toEqual([
      ["POST", "/api/me/vault/deploy/sign", "{}", WALLET],
      ["POST", "/api/me/vault/deploy/submit", JSON.stringify({ signature: "0x01", nonce: 7 }), WALLET],
    ]);
    expect(vault.wallet).toBe(WALLET);
  });

  it("a 4xx refusal is a Rejected result with its code and status, sent once", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(409, "vault_already_deployed", "already deployed"));
    const r = await settle(clock, client.forWallet(WALLET).vault.deploySubmit({ signature: "0x01" }));
    expect(r).toMatchObject({ ok: false, code: "vault_already_deployed", message: "already deployed", status: 409 });
    expect(transport.requests).toHaveLength(1);
  });

  it("a 429 was not processed: resent after Retry-After with the same body", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(rateLimited(2), json(200, { txHash: "0xcd" }));
    const r = await settle(clock, client.forWallet(WALLET).vault.deploySubmit({ signature: "0x02" }));
    expect(r.ok).toBe(true);
    expect(transport.requests).toHaveLength(2);
    expect(transport.requests[1]!.at - transport.requests[0]!.at).toBe(2_000);
    expect(transport.requests[1]!.body).toBe(transport.requests[0]!.body);
  });

  it("a 5xx may have taken effect: thrown once, its outcome unknown, not retried", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(502, "bad_gateway"));
    const e = await rejectionOf(clock, client.forWallet(WALLET).vault.deploySubmit({ signature: "0x03" }));
    expect(e).toMatchObject({ name: "ApiError", handling: "unknown_outcome", status: 502 });
    expect(transport.requests).toHaveLength(1);
  });

  it("a refused key is thrown, not returned", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(401, "api_key_revoked"));
    const e = await rejectionOf(clock, client.forWallet(WALLET).vault.deploySign());
    expect(e).toMatchObject({ code: "api_key_revoked", handling: "auth" });
  });
});
