import cliProgress from "cli-progress";
import type { Clock } from "../clock.js";

/** How a long command shows its progress: a bar on a terminal, plain lines in a log, JSON for machines. */
export type ProgressMode = "tty" | "plain" | "json";

/** Counts shown while a command runs (what it has written so far). */
export type ProgressCounts = Record<string, number>;

/** A problem with one input row: where it is and what is wrong. */
export interface ProgressIssue {
  at: string;
  message: string;
}

/** What a command tells its user while it runs. */
export interface ProgressReporter {
  /** Starts the display; `total` is the work in `unit`s (bytes of input, files, …), 0 when unknown. */
  start(total: number): void;
  /** Work done so far and the running counts. */
  update(done: number, counts: ProgressCounts): void;
  /** A row reported and skipped (or fatal, with --strict). */
  issue(issue: ProgressIssue): void;
  /** Something worth knowing that is not a skipped row (e.g. a status no column matches). */
  note(message: string): void;
  /** Stops the display (the bar is left at its last state). */
  stop(): void;
}

export interface ReporterOptions {
  mode: ProgressMode;
  /** Where the bar and the plain lines go (stderr, so stdout stays the command's answer). */
  stderr: NodeJS.WritableStream;
  /** Where JSON events go. */
  stdout: NodeJS.WritableStream;
  clock: Clock;
  /** What is being done, e.g. "Importing". */
  label: string;
  /** Unit of `total`; `bytes` shows sizes in MB. */
  unit: "bytes" | "items";
  /** Least time between two plain lines or JSON progress events. @default 2000 */
  intervalMs?: number;
}

/** Picks the mode a command runs in: `--json` wins, then a terminal on stderr gets the bar. */
export function progressMode(json: boolean, stderr: { isTTY?: boolean }): ProgressMode {
  if (json) return "json";
  return stderr.isTTY === true ? "tty" : "plain";
}

function amount(value: number, unit: "bytes" | "items"): string {
  return unit === "bytes" ? `${(value / 1024 / 1024).toFixed(1)} MB` : String(value);
}

/** `1m 05s`, `12s`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

function describe(counts: ProgressCounts): string {
  return Object.entries(counts)
    .map(([name, n]) => `${n} ${name}`)
    .join(", ");
}

/**
 * A progress display. Rate and ETA come from the injected clock (rows per second since start,
 * remaining work at the average pace so far), so tests drive it with a fake clock.
 *
 * @example
 * ```ts
 * const progress = createReporter({ mode: progressMode(false, process.stderr), stderr: process.stderr, stdout: process.stdout, clock: systemClock, label: "Importing", unit: "bytes" });
 * progress.start(file.size);
 * ```
 */
export function createReporter(options: ReporterOptions): ProgressReporter {
  const interval = options.intervalMs ?? 2000;
  let total = 0;
  let startedAt = 0;
  let lastShown = -Infinity;
  let bar: cliProgress.SingleBar | null = null;
  const stats = (done: number, counts: ProgressCounts) => {
    const elapsed = options.clock.now().getTime() - startedAt;
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    const rate = elapsed > 0 ? Math.round((rows * 1000) / elapsed) : 0;
    const eta = done > 0 && total > done ? ((total - done) * elapsed) / done : done >= total ? 0 : null;
    return { elapsed, rate, eta, percent: total > 0 ? Math.min(100, Math.floor((done * 100) / total)) : 100 };
  };
  return {
    start(work) {
      total = work;
      startedAt = options.clock.now().getTime();
      // A bar needs an end; work of unknown size (total 0) is shown as plain lines.
      if (options.mode === "tty" && total > 0) {
        bar = new cliProgress.SingleBar(
          {
            stream: options.stderr,
            format: `${options.label} [{bar}] {percentage}% | {counts} | {rate} rows/s | ETA {remaining}`,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(Math.max(total, 1), 0, { counts: "", rate: 0, remaining: "…" });
      } else if (options.mode === "json") {
        options.stdout.write(`${JSON.stringify({ type: "start", total, unit: options.unit })}\n`);
      } else {
        options.stderr.write(total > 0 ? `${options.label} ${amount(total, options.unit)}…\n` : `${options.label}…\n`);
      }
    },
    update(done, counts) {
      const s = stats(done, counts);
      if (bar !== null) {
        bar.update(Math.min(done, Math.max(total, 1)), { counts: describe(counts), rate: s.rate, remaining: s.eta === null ? "…" : duration(s.eta) });
        return;
      }
      const now = options.clock.now().getTime();
      if (now - lastShown < interval && (total <= 0 || done < total)) return;
      lastShown = now;
      if (options.mode === "json") {
        options.stdout.write(
          `${JSON.stringify({ type: "progress", done, total: total > 0 ? total : null, percent: total > 0 ? s.percent : null, counts, rate: s.rate, etaSeconds: s.eta === null || total <= 0 ? null : Math.round(s.eta / 1000) })}\n`,
        );
      } else if (total <= 0) {
        options.stderr.write(`${options.label}: ${describe(counts)}, ${s.rate} rows/s\n`);
      } else {
        const eta = s.eta === null ? "" : `, ETA ${duration(s.eta)}`;
        options.stderr.write(`${options.label}: ${s.percent}% (${amount(done, options.unit)} of ${amount(total, options.unit)}), ${describe(counts)}, ${s.rate} rows/s${eta}\n`);
      }
    },
    issue(issue) {
      if (options.mode === "json") {
        options.stdout.write(`${JSON.stringify({ type: "issue", at: issue.at, message: issue.message })}\n`);
        return;
      }
      const line = `Skipped ${issue.at}: ${issue.message}\n`;
      // Above the bar, which redraws below it.
      if (bar !== null) options.stderr.write(`\r\x1b[K${line}`);
      else options.stderr.write(line);
    },
    note(message) {
      if (options.mode === "json") options.stdout.write(`${JSON.stringify({ type: "note", message })}\n`);
      else options.stderr.write(`${bar !== null ? "\r\x1b[K" : ""}Note: ${message}\n`);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}
