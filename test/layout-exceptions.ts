/**
 * Source files with code but no test at the mirrored path (src/a/b.ts -> test/a/b.test.ts, or
 * test/a/b.<aspect>.test.ts), as of 2026-11-27: each is run by tests elsewhere (test/layout.test.ts
 * checks that some test reaches it through its imports), but a newcomer looking for its test finds
 * none where it should be. The list may only shrink: a new source file brings its mirrored test,
 * and a file that gets one leaves the list (the layout test fails on a stale entry). A value, when
 * given, says why no test reaches the file through imports.
 */
export const UNMIRRORED: Readonly<Record<string, string>> = {
};
