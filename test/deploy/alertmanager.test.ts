/**
 * configs/alertmanager/alertmanager.yaml: passes `amtool check-config`, routes every severity the
 * alert rules use (page to Telegram and Slack, warning to Slack) through Alertmanager's own Slack
 * and Telegram integrations, and holds no secret: each is a `*_file` path under the secrets mount
 * of docker-compose.yaml. amtool missing: skipped with a notice, or FAILS under CI (tools.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { AMTOOL } from "./tools.js";

const FILE = "configs/alertmanager/alertmanager.yaml";
const TEXT = readFileSync(FILE, "utf8");
const SECRETS_DIR = "/run/secrets/alertmanager/";

interface Route {
  receiver?: string;
  matchers?: string[];
  continue?: boolean;
  routes?: Route[];
}
interface Receiver {
  name: string;
  slack_configs?: Record<string, unknown>[];
  telegram_configs?: Record<string, unknown>[];
}
const config = parseYaml(TEXT) as { route: Route; receivers: Receiver[] };

const severities = [
  ...new Set(
    (parseYaml(readFileSync("configs/prometheus/alerts.yaml", "utf8")) as { groups: { rules: { labels: { severity: string } }[] }[] }).groups.flatMap((g) =>
      g.rules.map((r) => r.labels.severity),
    ),
  ),
];

/** The receivers an alert with these labels reaches (Alertmanager's tree: first match, `continue` goes on). */
function receiversFor(labels: Record<string, string>): string[] {
  const matches = (m: string): boolean => {
    const [, name, op, value] = /^(\w+)(=~|!=|=)"(.*)"$/.exec(m) ?? [];
    if (name === undefined) throw new Error(`unexpected matcher ${m}`);
    const v = labels[name] ?? "";
    if (op === "=") return v === value;
    if (op === "!=") return v !== value;
    return new RegExp(`^(?:${value})$`).test(v);
  };
  const out: string[] = [];
  for (const r of config.route.routes ?? []) {
    if ((r.matchers ?? []).every(matches)) {
      out.push(r.receiver!);
      if (r.continue !== true) return out;
    }
  }
  if (out.length === 0) out.push(config.route.receiver!);
  return out;
}

/** amtool older than 0.26 (Debian bookworm ships 0.25) does not know telegram_configs.bot_token_file. */
function amtoolKnowsBotTokenFile(): boolean {
  const v = /version (\d+)\.(\d+)/.exec(AMTOOL.run(["--version"]).out);
  return v !== null && (Number(v[1]) > 0 || Number(v[2]) >= 26);
}

describe("configs/alertmanager/alertmanager.yaml", () => {
  it("routes page to Telegram and Slack, warning to Slack, and every severity the rules use somewhere", () => {
    expect(severities.sort()).toEqual(["page", "warning"]);
    expect(receiversFor({ alertname: "MMDeadMan", severity: "page" })).toEqual(["telegram", "slack"]);
    expect(receiversFor({ alertname: "MMStreamDown", severity: "warning" })).toEqual(["slack"]);
    const names = config.receivers.map((r) => r.name);
    for (const s of severities) for (const r of receiversFor({ severity: s })) expect(names).toContain(r);
  });

  it("uses Alertmanager's own Slack and Telegram integrations, secrets only through *_file fields", () => {
    const slack = config.receivers.find((r) => r.name === "slack")?.slack_configs ?? [];
    const telegram = config.receivers.find((r) => r.name === "telegram")?.telegram_configs ?? [];
    expect(slack.length).toBe(1);
    expect(telegram.length).toBe(1);
    expect(slack[0]!["api_url_file"]).toBe(`${SECRETS_DIR}slack-webhook-url`);
    expect(slack[0]!["api_url"]).toBeUndefined();
    expect(telegram[0]!["bot_token_file"]).toBe(`${SECRETS_DIR}telegram-bot-token`);
    expect(telegram[0]!["bot_token"]).toBeUndefined();
    expect(Number.isInteger(telegram[0]!["chat_id"])).toBe(true);
    // Nothing shaped like a real secret: no webhook URL, no bot token (digits:35 characters).
    expect(TEXT).not.toMatch(/hooks\.slack\.com\/services\/[A-Z0-9]+\/[A-Z0-9]+\//);
    expect(TEXT).not.toMatch(/\b\d{6,}:[A-Za-z0-9_-]{30,}\b/);
    expect(TEXT).not.toMatch(/^\s*(api_url|bot_token|webhook_url|auth_password):/m);
  });

  it.skipIf(AMTOOL.noticeIfSkipped("amtool check-config"))("passes amtool check-config", () => {
    let file = FILE;
    const dir = mkdtempSync(join(tmpdir(), "mm-am-"));
    try {
      if (!amtoolKnowsBotTokenFile()) {
        // Check everything else with the token inline (a dummy): the compose image (0.28) reads the file.
        file = join(dir, "alertmanager.yaml");
        writeFileSync(file, TEXT.replace(/bot_token_file: \S+/, 'bot_token: "0:not-a-token"'));
      }
      const res = AMTOOL.run(["check-config", file]);
      expect(res.out).toContain("SUCCESS");
      expect(res.out).toContain("2 receivers");
      expect(res.status).toBe(0);

      // The check can fail: a route to a receiver that does not exist.
      const bad = join(dir, "bad.yaml");
      writeFileSync(bad, readFileSync(file, "utf8").replace("receiver: telegram", "receiver: pagerduty"));
      expect(AMTOOL.run(["check-config", bad]).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
