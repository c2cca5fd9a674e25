/**
 * Request latency for the platform client: a Transport wrapper that times every request on the
 * Clock and reports (method, path, status) to the observer, which reduces the path to its route
 * template. Wrap the transport handed to createClient:
 *
 *   createClient({ transport: instrumentTransport(new FetchTransport(...), observer, clock), ... })
 *
 * Every attempt is timed (a retried request is several observations), like the breaker counts.
 */
import type { HttpRequest, HttpResponse, Transport } from "../wire/transport.js";
import type { Clock } from "../core/clock.js";
import type { EngineEvents } from "./observer.js";

export function instrumentTransport(inner: Transport, events: Pick<EngineEvents, "httpRequest">, clock: Pick<Clock, "now">): Transport {
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const started = clock.now();
      try {
        const res = await inner.request(req);
        events.httpRequest({ method: req.method, path: req.path, status: res.status, durationMs: clock.now() - started });
        return res;
      } catch (error) {
        events.httpRequest({ method: req.method, path: req.path, status: undefined, durationMs: clock.now() - started });
        throw error;
      }
    },
  };
}
