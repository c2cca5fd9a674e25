import { describe, expect, it } from "vitest";
import { COMMANDS, helpText, main } from "../../src/cli/main.js";

describe("mm command line", () => {
  it("lists every command in --help", () => {
    const text = helpText();
    for (const name of Object.keys(COMMANDS)) expect(text).toContain(name);
  });

  it("exits 2 on an unknown command", async () => {
    expect(await main(["no-such-command"])).toBe(2);
  });
});
