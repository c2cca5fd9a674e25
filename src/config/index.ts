export {
  ConfigError,
  loadConfig,
  parseConfig,
  type AdminConfig,
  type Config,
  type ConfigIssue,
  type InstanceConfig,
  type LiveConfig,
  type LivePlatformConfig,
  type LogConfig,
  type MarketsConfig,
  type MetricsConfig,
  type ParseOptions,
  type PlatformRateConfig,
  type QuotingConfig,
  type RiskConfig,
  type ShutdownConfig,
  type SimulatorModeConfig,
  type SimulatorSettings,
  type StrategyConfig,
} from "./load.js";
export { Secret, REDACTED, isSecret } from "../core/secret.js";
export { interpolate, type Env } from "./interpolate.js";
export { configView, describeConfig } from "./summary.js";
export { LOG_LEVELS } from "./schema.js";
export { MAX_WALLETS, simulatorWalletKey, type WalletConfig } from "./wallets.js";
