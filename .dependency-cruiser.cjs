/**
 * The architecture as rules (docs/architecture.md, "Layers"): an import points down the layer list,
 * nothing imports in a circle, and inside src/bot the parts never import the shell. `npm run
 * depcheck` (run by .ci/run) fails on any violation.
 */
const LAYERS = [
  "src/cli",
  "src/sweep",
  "src/conform",
  "src/paper",
  "src/backtest",
  "src/record",
  "src/bot",
  "src/metrics",
  "src/api",
  "src/stream",
  "src/sim",
  "src/signing",
  "src/config",
  "src/ratelimit",
  "src/wire",
  "strategies",
  "src/log",
  "src/data",
  "src/core",
];

/**
 * Upward imports the architecture allows (docs/architecture.md says why): the metrics are the
 * daemon's observer and read the vocabulary of what they count (events, halts, limit reasons, fill
 * roles, tracker counters), where it is defined beside its producer; never the daemon's code.
 */
const ALLOWED_UP = {
  "src/metrics": [
    "src/bot/observer\\.ts$",
    "src/bot/risk/types\\.ts$",
    "src/bot/risk/limits\\.ts$",
    "src/bot/fills/fill-types\\.ts$",
    "src/bot/orders/order-tracker-types\\.ts$",
  ],
};

const slashes = (p) => p.replace(/\//g, "\\/");

const layerRules = LAYERS.map((layer, i) => {
  const above = LAYERS.slice(0, i);
  if (above.length === 0) return undefined;
  const allowed = (ALLOWED_UP[layer] ?? []).map((p) => `^${slashes(p)}`);
  return {
    name: `layer-${layer.replace(/^src\//, "")}`,
    comment: `${layer} imports only from layers below it (docs/architecture.md)`,
    severity: "error",
    from: { path: `^${slashes(layer)}/` },
    to: { path: `^(${above.map(slashes).join("|")})/`, ...(allowed.length > 0 ? { pathNot: allowed } : {}) },
  };
}).filter((r) => r !== undefined);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "modules import each other in a circle",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "conform-not-sim",
      comment: "mm conform checks a real platform: src/conform never imports the simulator (docs/architecture.md)",
      severity: "error",
      from: { path: "^src/conform/" },
      to: { path: "^src/sim/" },
    },
    {
      name: "paper-not-sim",
      comment: "paper trading runs against a real platform: src/paper never imports the simulator (docs/architecture.md)",
      severity: "error",
      from: { path: "^src/paper/" },
      to: { path: "^src/sim/" },
    },
    {
      name: "bot-parts-not-shell",
      comment: "the daemon's parts (market, quote, risk, orders, fills) never import its shell (engine, guards): the shell feeds them values and events",
      severity: "error",
      from: { path: "^src/bot/(market|quote|risk|orders|fills)/" },
      to: { path: "^src/bot/(engine|guards)/" },
    },
    {
      name: "runtime-not-dev-deps",
      comment: "what the package runs (src, strategies) imports only runtime dependencies: the image installs with npm ci --omit=dev, so a devDependency would be missing there",
      severity: "error",
      from: { path: "^(src|strategies)/" },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "runtime-deps-declared",
      comment: "every package src and strategies import is declared in package.json",
      severity: "error",
      from: { path: "^(src|strategies)/" },
      to: { dependencyTypes: ["npm-no-pkg", "npm-unknown"] },
    },
    {
      name: "unsigned-signer-backtest-only",
      comment: "the no-op signer of signatures-off backtests reaches the daemon only from src/backtest (docs/backtest.md \"Signatures off\"): mm run can never sign with it",
      severity: "error",
      from: { path: "^(?!src/backtest/)" },
      to: { path: "^src/signing/unsigned\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|test|bench)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
