/** Test helpers for the /ws/user gateway tests (not a test file): a recording sink and a connected session. */
import type { WsSink } from "../../../src/sim/ws/session.js";
import { KEYS, makePipeline, W1 } from "../http/helpers.js";

export class FakeSink implements WsSink {
  readonly sent: string[] = [];
  ended: "close" | "terminate" | undefined;
  closeCode: number | undefined;
  closeReason: string | undefined;
  /** Set to make every later send throw (a broken transport). */
  failSends = false;
  send(text: string): void {
    if (this.failSends) throw new Error("socket is gone");
    this.sent.push(text);
  }
  close(code: number, reason: string): void {
    this.ended = "close";
    this.closeCode = code;
    this.closeReason = reason;
  }
  terminate(): void {
    this.ended = "terminate";
  }
  frames(): Record<string, unknown>[] {
    return this.sent.map((s) => JSON.parse(s) as Record<string, unknown>);
  }
  types(): string[] {
    return this.frames().map((f) => String(f.type));
  }
}

export function connect(headers: Record<string, string> = { "X-Api-Key": KEYS.mm, "X-User-Wallet": W1 }, url = "/ws/user") {
  const env = makePipeline([]);
  const check = env.hub.upgrade({ url, headers });
  if (!check.ok) throw new Error(`refused: ${check.response.bodyText}`);
  const sink = new FakeSink();
  const session = env.hub.open(check.auth, sink);
  return { ...env, sink, session };
}

export const subscribe = '{"type":"subscribe","channel":"user_orders"}';
