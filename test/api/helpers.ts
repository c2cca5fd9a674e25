/** A client wired to a FakeTransport on a VirtualClock with a seeded Rng. */
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import type { ClientOptions } from "../../src/api/index.js";
import { createClient, type PartnerClient } from "../../src/api/index.js";
import { FakeTransport } from "./fake-transport.js";

/** Shaped like a real key (`<prefix>_<env>_<keyId>_<secret>`). */
export const API_KEY = "pmk_sim_0123456789abcdef_S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tAB";

export interface Harness {
  clock: VirtualClock;
  transport: FakeTransport;
  client: PartnerClient;
}

export function harness(opts: Partial<ClientOptions> = {}): Harness {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const transport = new FakeTransport(clock);
  const client = createClient({ transport, apiKey: API_KEY, clock, rng: new Rng(42), ...opts });
  return { clock, transport, client };
}
