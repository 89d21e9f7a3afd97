/** Small, dependency-free statistics for benchmark figures. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function min(values: readonly number[]): number {
  return values.length ? Math.min(...values) : Number.NaN;
}

export function max(values: readonly number[]): number {
  return values.length ? Math.max(...values) : Number.NaN;
}

/** Rounds to a fixed number of decimals, keeping the result a number (for JSON output). */
export function round(value: number, decimals = 2): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: min(values), max: max(values) };
}
