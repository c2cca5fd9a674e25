/**
 * Reading a secret from a file (a wallet's private key, an API key, an admin token), refusing, as
 * ssh does, a file whose mode gives group or others any access: a key another local user can read
 * is a key that may already be copied. The mode is taken from the open descriptor (no race between
 * the check and the read) and checked before the content is read, so a refused secret is never
 * loaded. Windows has no POSIX modes to check (node reports 0o666 for every writable file), so the
 * check is skipped there.
 *
 * Results name the file and its mode, never its content.
 */
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";

export type KeyFileResult =
  | { ok: true; content: string }
  /** `code`: the errno code (ENOENT, EACCES, EISDIR, ...) when the file could not be read. */
  | { ok: false; problem: "unreadable"; code: string }
  /** `mode`: the permission bits (e.g. 0o644) of a file open to group or others. */
  | { ok: false; problem: "too_open"; mode: number };

/** Permission bits for group and others: any of them set and the file is not private. */
const GROUP_OTHER_BITS = 0o077;

function errnoCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? "unreadable";
}

/** `path` must already be resolved (absolute, or relative to the working directory). */
export function readKeyFile(path: string, platform: NodeJS.Platform = process.platform): KeyFileResult {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    return { ok: false, problem: "unreadable", code: errnoCode(error) };
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { ok: false, problem: "unreadable", code: "EISDIR" };
    const mode = stat.mode & 0o777;
    if (platform !== "win32" && (mode & GROUP_OTHER_BITS) !== 0) return { ok: false, problem: "too_open", mode };
    return { ok: true, content: readFileSync(fd, "utf8") };
  } catch (error) {
    return { ok: false, problem: "unreadable", code: errnoCode(error) };
  } finally {
    closeSync(fd);
  }
}

/** `0644`: a mode as ls and chmod write it. */
export function formatMode(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}

/** Who a too-open mode lets in: "group", "others" or "group and others". */
function openTo(mode: number): string {
  const group = (mode & 0o070) !== 0;
  const others = (mode & 0o007) !== 0;
  return group && others ? "group and others" : group ? "group" : "others";
}

/**
 * The message for a too-open key file: the file as the user named it, its mode, and the command
 * that fixes it (with the resolved path, so it works from any directory).
 */
export function tooOpenMessage(named: string, resolved: string, mode: number): string {
  return (
    `key file ${named} has mode ${formatMode(mode)}, open to ${openTo(mode)}; ` +
    `a key file must be private to its owner: chmod 600 ${resolved}`
  );
}
