/** Ending a socket whatever its state, and reading error values safely. */
import type { SocketLike } from "../wire/transport.js";

export type SocketEnding = "none" | "close" | "terminate";

export function endSocket(socket: SocketLike | undefined, code: number, reason: string, ending: SocketEnding): void {
  if (socket === undefined || ending === "none") return;
  const terminate = (socket as { terminate?: unknown }).terminate;
  const drop = (): boolean => {
    if (typeof terminate !== "function") return false;
    (terminate as () => void).call(socket);
    return true;
  };
  try {
    // A dead or broken peer never answers a close handshake: drop the TCP connection when we can.
    // 1006 is only ever reported, never sent (ws refuses it), hence the code check.
    const sendable = code === 1000 || (code >= 3000 && code <= 4999);
    if ((ending === "terminate" || !sendable) && drop()) return;
    // A close reason is limited to 123 bytes.
    socket.close(sendable ? code : 1000, Buffer.from(reason).subarray(0, 120).toString("utf8"));
  } catch {
    try {
      drop();
    } catch {
      // Already closed: nothing left to end.
    }
  }
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function stringField(v: unknown, key: string): string | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const f = (v as Record<string, unknown>)[key];
  return typeof f === "string" ? f : undefined;
}
