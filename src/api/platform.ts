/** Public platform state (spec 4.9): contracts, fee configuration, freeze status, notices, health, readiness. */
import type { FeeConfig, Health, Notices, PlatformContracts, PlatformStatus, Readiness } from "../wire/index.js";
import { feeConfig, health, notices, platformContracts, platformStatus, readiness } from "../wire/index.js";
import type { ApiCore, CallSpec } from "./core.js";
import { readCall } from "./decode.js";
import type { CallOptions, Ok } from "./results.js";

function readSpec(p: string, opts?: CallOptions): CallSpec {
  return { method: "GET", path: p, auth: false, policy: "read", ...(opts?.signal ? { signal: opts.signal } : {}) };
}

export class PlatformApi {
  constructor(private readonly core: ApiCore) {}

  /** Everything needed for the EIP-712 domain (docs/spec-gaps.md). */
  contracts(opts?: CallOptions): Promise<Ok<PlatformContracts>> {
    return readCall(this.core, readSpec("/api/platform/contracts", opts), platformContracts);
  }

  feeConfig(opts?: CallOptions): Promise<Ok<FeeConfig>> {
    return readCall(this.core, readSpec("/api/platform/fee-config", opts), feeConfig);
  }

  status(opts?: CallOptions): Promise<Ok<PlatformStatus>> {
    return readCall(this.core, readSpec("/api/platform/status", opts), platformStatus);
  }

  notices(opts?: CallOptions): Promise<Ok<Notices>> {
    return readCall(this.core, readSpec("/api/platform/notices", opts), notices);
  }

  /** `GET /health`: liveness. */
  health(opts?: CallOptions): Promise<Ok<Health>> {
    return readCall(this.core, readSpec("/health", opts), health);
  }

  /**
   * `GET /ready`: a 503 with `{ready: false}` is an answer here, not a failure (it is neither
   * retried nor counted by the circuit breaker).
   */
  ready(opts?: CallOptions): Promise<Ok<Readiness>> {
    const spec: CallSpec = { ...readSpec("/ready", opts), answerStatuses: [503] };
    return readCall(this.core, spec, readiness);
  }
}
