/** Reading an exposition text in the metrics tests: one series' value, or every series of a metric. */

/** The value of exactly `series` (name and labels as printed), undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every sample line of metric `name` (not its HELP/TYPE lines, nor another metric sharing the prefix). */
export function seriesOf(text: string, name: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
}
