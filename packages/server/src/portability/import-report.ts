import type { AppRow } from "../apps/app-row.js";
import type { CommandIo } from "../command-io.js";
import type { ImportCommandOptions, ImportResult } from "./import-format.js";
import type { ImportMappingError } from "./import-errors.js";

/** One problem on the line, several one per line. */
export function mappingFailure(error: ImportMappingError): string {
  const [only, ...more] = error.problems;
  if (more.length === 0) return `Cannot import: ${only ?? error.message}. Nothing was written.`;
  return `Cannot import:\n${error.problems.map((p) => `  ${p}`).join("\n")}\nNothing was written.`;
}

/** The summary of an import (or of a dry run): what was new, what was there already, what was skipped. */
export function report(io: CommandIo, options: ImportCommandOptions, target: { app: AppRow; created: boolean }, result: ImportResult, skipped: number): void {
  const c = result.counts;
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ type: "summary", dryRun: options.dryRun, format: options.format, app: { key: target.app.appKey, name: target.app.name, created: target.created }, counts: c, skipped })}\n`,
    );
    return;
  }
  const verb = options.dryRun ? "Would import" : "Imported";
  const app = `${target.created ? (options.dryRun ? "a new app" : "new app") : "app"} "${target.app.name}" (${target.app.appKey})`;
  const lines = [
    `${verb} into ${app}:`,
    `  requests  ${c.requests} new, ${c.requestsExisting} already imported`,
    `  votes     ${c.votes} new, ${c.votesExisting} already there, plus ${c.importedVotes} counted without a voter`,
    `  comments  ${c.comments} new, ${c.commentsExisting} already imported`,
    `  end users ${c.endUsers} new`,
    `  boards    ${c.boards} new`,
    `  tags      ${c.tags} new`,
  ];
  if (skipped > 0) lines.push(`${skipped} row(s) skipped (listed above).`);
  if (options.dryRun) lines.push("Dry run: nothing was written.");
  io.stdout.write(`${lines.join("\n")}\n`);
}
