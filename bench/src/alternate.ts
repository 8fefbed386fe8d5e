/**
 * Alternated measurement: the sides being compared run in turn (A, B, A, B, A, B), never one
 * block after the other, so drift on a shared machine (other processes, thermal limits, caches
 * warming) lands on every side alike. A ratio is computed within each round and reported as the
 * median of the rounds with its spread, which says how far to trust it.
 */

/** How many rounds a comparison runs unless told otherwise. */
export const ROUNDS = 3;

/** The median of the per-round ratios of two sides, and how far the rounds strayed from it. */
export interface Ratio {
  median: number;
  /** Largest distance of a round's ratio from the median, as a fraction of the median. */
  spread: number;
  rounds: number[];
}

/** Per side, the value each round measured (in round order). */
export type Rounds<K extends string> = Record<K, number[]>;

/**
 * Runs every side once per round, in the order given, for `rounds` rounds; each side's function
 * measures once and answers one number (requests per second, a latency).
 *
 * @example
 * ```ts
 * const runs = await alternate({ tidings: () => rate(url), bare: () => rate(bareUrl) });
 * console.log(formatRatio(ratio(runs, "tidings", "bare"))); // "0.91x ±2.1%"
 * ```
 */
export async function alternate<K extends string>(sides: Record<K, () => Promise<number>>, rounds = ROUNDS): Promise<Rounds<K>> {
  const names = Object.keys(sides) as K[];
  const out = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Rounds<K>;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) out[name].push(await sides[name]());
  }
  return out;
}

/** `a / b` of each round, summarised. */
export function ratio<K extends string>(runs: Rounds<K>, a: K, b: K): Ratio {
  const rounds = runs[a].map((value, i) => value / runs[b][i]!);
  const mid = median(rounds);
  return { median: mid, spread: Math.max(...rounds.map((r) => Math.abs(r - mid))) / mid, rounds };
}

/** The median of a side's rounds. */
export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** "0.91x ±2.1%". */
export function formatRatio(r: Ratio): string {
  return `${r.median.toFixed(2)}x ±${(r.spread * 100).toFixed(1)}%`;
}
