/**
 * A minimal typed event emitter. Node's EventEmitter would do, but it throws on an `error` event
 * without listeners and lets a throwing listener unwind into the emitter: here a listener that
 * throws is reported to `onListenerError` and the other listeners still run, so a bug in a
 * consumer can never kill the stream that feeds it.
 */

export type Listener<T> = (payload: T) => void;

export class TypedEmitter<M extends object> {
  private readonly listeners = new Map<keyof M, Set<Listener<never>>>();

  constructor(private readonly onListenerError?: (event: keyof M, error: unknown) => void) {}

  /** Subscribe; returns the function that unsubscribes. */
  on<K extends keyof M>(event: K, listener: Listener<M[K]>): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => this.off(event, listener);
  }

  /** Subscribe for the next emission only. */
  once<K extends keyof M>(event: K, listener: Listener<M[K]>): () => void {
    const off = this.on(event, (payload) => {
      off();
      listener(payload);
    });
    return off;
  }

  off<K extends keyof M>(event: K, listener: Listener<M[K]>): void {
    this.listeners.get(event)?.delete(listener);
  }

  listenerCount(event: keyof M): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  emit<K extends keyof M>(event: K, payload: M[K]): void {
    const set = this.listeners.get(event);
    if (set === undefined) return;
    // A copy: a listener may unsubscribe (or subscribe) while we iterate.
    for (const listener of [...set] as Listener<M[K]>[]) {
      try {
        listener(payload);
      } catch (e) {
        this.onListenerError?.(event, e);
      }
    }
  }
}
