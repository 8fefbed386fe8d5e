import cliProgress from "cli-progress";
import type { CommandIo } from "../command-io.js";
import type { MigrationStep, MigrationSummary } from "./migrate-uploads.js";

/** A bar with counts and ETA on a terminal, one plain line per upload otherwise. */
export function progressReporter(io: CommandIo, total: number) {
  if (io.stderr.isTTY === true && total > 0) {
    const bar = new cliProgress.SingleBar(
      {
        stream: io.stderr,
        format: "Copying uploads [{bar}] {value}/{total} | {copied} copied, {skipped} already there, {failed} failed | ETA {eta_formatted}",
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { copied: 0, skipped: 0, failed: 0 });
    return {
      step: (_step: MigrationStep, summary: MigrationSummary) =>
        bar.increment(1, { copied: summary.copied, skipped: summary.skipped, failed: summary.failed }),
      stop: () => bar.stop(),
    };
  }
  let done = 0;
  return {
    step: (step: MigrationStep) => {
      done += 1;
      const what = step.outcome === "copied" ? "copied" : step.outcome === "skipped" ? "already there" : `FAILED: ${step.error ?? "unknown error"}`;
      io.stderr.write(`[${done}/${total}] ${step.key} (${step.size} bytes) ${what}\n`);
    },
    stop: () => {},
  };
}
