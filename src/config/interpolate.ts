/**
 * `${VAR}` references in config strings.
 *
 * Non-secret strings may mix text and references, with an optional default
 * (`https://${HOST:-127.0.0.1}:8080`); `$${` writes a literal `${`. A secret field must be exactly
 * one reference with no default, so a secret can never sit in the YAML itself.
 */

export type Env = Readonly<Record<string, string | undefined>>;

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const REFERENCE_RE = new RegExp(`\\$\\$\\{|\\$\\{(${NAME})(?::-([^}]*))?\\}`, "g");
const SECRET_REFERENCE_RE = new RegExp(`^\\$\\{(${NAME})\\}$`);

export class InterpolationError extends Error {
  override readonly name = "InterpolationError";
}

/** Replace every `${VAR}` / `${VAR:-default}`; a missing variable without default throws. */
export function interpolate(text: string, env: Env): string {
  const missing: string[] = [];
  const out = text.replace(REFERENCE_RE, (match: string, name: string | undefined, fallback: string | undefined) => {
    if (match === "$${") return "${";
    const value = env[name!];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    missing.push(name!);
    return "";
  });
  if (missing.length > 0) {
    throw new InterpolationError(
      `environment variable${missing.length > 1 ? "s" : ""} ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} not set`,
    );
  }
  return out;
}

/** The variable name when `text` is exactly one `${VAR}` reference, else undefined. */
export function secretReference(text: string): string | undefined {
  return SECRET_REFERENCE_RE.exec(text.trim())?.[1];
}

/** True when the text contains any `${...}` reference (escaped `$${` excluded). */
export function hasReference(text: string): boolean {
  return /(^|[^$])\$\{/.test(text);
}
