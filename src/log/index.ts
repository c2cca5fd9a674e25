export {
  createLogger,
  logFormatOf,
  prettyDestination,
  scrubbingDestination,
  REDACT_PATHS,
  type LogFormat,
  type LogLevel,
  type Logger,
  type LoggerOptions,
} from "./logger.js";
export { REDACTED, isSecretKey, redactKeys, redactLogLine, redactSecrets } from "./redact.js";
