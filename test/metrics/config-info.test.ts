/**
 * mm_config_info{hash} (src/metrics/config-info.ts): absent until a config is set, then exactly one
 * series at 1 labelled with the active hash; a reload to a new hash removes the old series, and
 * setting the same hash again changes nothing.
 */
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { ConfigInfoMetric } from "../../src/metrics/config-info.js";
import { sample, seriesOf } from "./samples.js";

describe("mm_config_info", () => {
  it("has no series before the first config", async () => {
    const registry = new Registry();
    new ConfigInfoMetric(registry);
    const text = await registry.metrics();
    expect(text).toContain("# TYPE mm_config_info gauge");
    expect(seriesOf(text, "mm_config_info")).toEqual([]);
  });

  it("serves one series for the active hash, the old one removed on a change", async () => {
    const registry = new Registry();
    const info = new ConfigInfoMetric(registry);
    info.set("aaaa1111");
    let text = await registry.metrics();
    expect(seriesOf(text, "mm_config_info")).toEqual(['mm_config_info{hash="aaaa1111"} 1']);
    info.set("bbbb2222");
    text = await registry.metrics();
    expect(seriesOf(text, "mm_config_info")).toEqual(['mm_config_info{hash="bbbb2222"} 1']);
    expect(sample(text, 'mm_config_info{hash="aaaa1111"}')).toBeUndefined();
  });

  it("the same hash again keeps its one series", async () => {
    const registry = new Registry();
    const info = new ConfigInfoMetric(registry);
    info.set("cafe");
    info.set("cafe");
    expect(seriesOf(await registry.metrics(), "mm_config_info")).toEqual(['mm_config_info{hash="cafe"} 1']);
  });
});
