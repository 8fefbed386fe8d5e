import type { Clock } from "../clock.js";
import { createReporter, progressMode, type ProgressReporter } from "./progress.js";

/**
 * An `onProgress(done, total?)` callback (what export, backup and archive import take) shown by
 * `reporter`: it starts the display at its first call, with `total` when the operation knows it.
 *
 * @example
 * ```ts
 * await backup(url, storage, out, { onProgress: countProgress(reporter, "files") });
 * ```
 */
export function countProgress(reporter: ProgressReporter, name: string): (done: number, total?: number) => void {
  let started = false;
  return (done, total) => {
    if (!started) {
      started = true;
      reporter.start(total ?? 0);
    }
    reporter.update(done, { [name]: done });
  };
}

/**
 * The progress of a command whose stdout is its answer (export, backup, restore): a bar on a
 * terminal, plain lines otherwise, always on stderr.
 */
export function stderrProgress(io: { stderr: NodeJS.WritableStream & { isTTY?: boolean }; stdout: NodeJS.WritableStream }, clock: Clock, label: string, name: string): (done: number, total?: number) => void {
  const reporter = createReporter({ mode: progressMode(false, io.stderr), stderr: io.stderr, stdout: io.stdout, clock, label, unit: "items" });
  return countProgress(reporter, name);
}
