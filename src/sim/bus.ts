/**
 * The simulator's user-frame bus: the order desk publishes `/ws/user` frames per wallet, the
 * WebSocket hub (and in-process sockets) subscribe per wallet. Frames are delivered
 * synchronously in publish order, so a run on the virtual clock is deterministic.
 */
export type UserFrame = { type: string; serverTs: number } & Record<string, unknown>;
export type FrameListener = (frame: UserFrame) => void;

export class UserFrameBus {
  private readonly listeners = new Map<string, Set<FrameListener>>();

  /** Subscribe to one wallet's frames (lower-cased); returns the unsubscribe function. */
  subscribe(wallet: string, listener: FrameListener): () => void {
    const key = wallet.toLowerCase();
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  publish(wallet: string, frame: UserFrame): void {
    const set = this.listeners.get(wallet.toLowerCase());
    if (!set) return;
    for (const l of [...set]) l(frame);
  }

  subscriberCount(wallet?: string): number {
    if (wallet) return this.listeners.get(wallet.toLowerCase())?.size ?? 0;
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }
}
