import v8 from "node:v8";

/**
 * Bounds how far V8 lets the JavaScript heap grow past what survived its last full collection
 * before it collects again (`--heap-growing-percent`), for `tidings serve`.
 *
 * Left to itself, V8 raises that factor towards 4x while a process allocates fast. Under the held
 * load on PostgreSQL the server's live heap stayed at 65–100 MB after every full collection, yet
 * V8 let the heap reach 360 MB between collections, and the RSS swung from 227 to 449 MB over
 * five minutes as the factor rose: memory an operator must provision that holds nothing. The
 * objects that fill it are each request's, promoted while requests wait on the database and dead
 * soon after. With the factor at 1.5 the same load kept the RSS at 215–251 MB; full collections
 * came more often and cost 0.3% of the process's CPU (see docs/capacity.md).
 *
 * Not applied when `percent` is 0, or when the process was started with the flag, whose value wins.
 * Returns whether it was applied.
 *
 * @example
 * ```ts
 * boundHeapGrowth(config.heapGrowthPercent);
 * ```
 */
export function boundHeapGrowth(percent: number, execArgv: readonly string[] = process.execArgv): boolean {
  if (percent === 0 || execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return false;
  // Read by V8 each time it sets the next collection's limit, so it applies from the next one on.
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
