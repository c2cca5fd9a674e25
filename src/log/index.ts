export { createLogger, scrubbingDestination, REDACT_PATHS, type LogLevel, type Logger, type LoggerOptions } from "./logger.js";
export { REDACTED, isSecretKey, redactKeys, redactLogLine, redactSecrets } from "./redact.js";
