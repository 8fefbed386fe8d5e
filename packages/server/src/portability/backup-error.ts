/** A backup or restore refused for a reason the operator fixes (exit code 2). */
export class BackupUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupUsageError";
  }
}
