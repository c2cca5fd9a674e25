/**
 * Replicas of one daemon as pods against the in-process simulator, for the hand-off tests
 * (handoff.test.ts, lease-handoff.test.ts): each pod's own address, and which replicas have orders
 * open on each wallet, read from the simulator's own records.
 */
import { InProcessSocketConnector, InProcessTransport } from "../../src/sim/http/in-process.js";
import { walletAddress, type SimHarness } from "../integration/harness.js";

export interface Pods {
  /** Pod `index`: its own address `${subnet}.${index + 2}` (and so its own IP buckets), as pods have. */
  pod(h: SimHarness, index: number): { transport: InProcessTransport; connector: InProcessSocketConnector };
  /**
   * The replica ids (`${instance}-s<n>`, the client order id's prefix) with open orders on each of
   * the first `wallets` wallets; an order no replica of ours placed counts as `other:<clientOrderId>`.
   */
  owners(h: SimHarness): Map<string, Set<string>>;
}

export function shardPods(o: { subnet: string; instance: string; wallets: number }): Pods {
  const replicaId = new RegExp(`^(${o.instance.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-s\\d+)-`);
  return {
    pod(h, index) {
      const remoteAddress = `${o.subnet}.${index + 2}`;
      return { transport: new InProcessTransport(h.pipeline, { remoteAddress }), connector: new InProcessSocketConnector(h.hub, { remoteAddress }) };
    },
    owners(h) {
      const out = new Map<string, Set<string>>();
      for (let i = 0; i < o.wallets; i++) {
        const w = walletAddress(i);
        const ids = new Set<string>();
        for (const order of h.sim.desk.records.liveOf(w)) ids.add(replicaId.exec(order.clientOrderId ?? "")?.[1] ?? `other:${order.clientOrderId}`);
        out.set(w, ids);
      }
      return out;
    },
  };
}
