/** The archive is not one this server can read; `line` is 1-based. Nothing after that line was written. */
export class ArchiveError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly conflict = false,
  ) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.name = "ArchiveError";
  }
}
