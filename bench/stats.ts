export interface BenchRow {
  name: string;
  value: string;
  baseline: string;
  /** value / baseline, both measured in the same run. */
  ratio: number | null;
  target: string;
  met: boolean;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The rows as a Markdown table, as the README shows them. */
export function markdownTable(rows: BenchRow[]): string {
  const lines = rows.map(
    (r) =>
      `| ${r.name} | ${r.value} | ${r.baseline} | ${r.ratio === null ? '-' : r.ratio.toFixed(2)} | ${r.target} | ${r.met ? 'yes' : 'NO'} |`,
  );
  return [
    '| measure | figure | baseline (same run) | ratio | target | met |',
    '|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}
