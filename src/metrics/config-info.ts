/**
 * `mm_config_info{hash}`: 1 for the config the daemon runs on now (src/config/reload-diff.ts
 * configHash: no secret goes into it). A reload that changes the hash removes the old series, so
 * exactly one is served at any time.
 */
import { Gauge, type Registry } from "prom-client";

export class ConfigInfoMetric {
  private readonly gauge: Gauge<"hash">;
  private hash: string | undefined;

  constructor(registry: Registry) {
    this.gauge = new Gauge({
      name: "mm_config_info",
      help: "1 for the active config, labelled with its hash (sha256 of the parsed config without secrets; changes on a reload that applied).",
      labelNames: ["hash"],
      registers: [registry],
    });
  }

  set(hash: string): void {
    if (this.hash !== undefined && this.hash !== hash) this.gauge.remove({ hash: this.hash });
    this.hash = hash;
    this.gauge.set({ hash }, 1);
  }
}
