import { PassThrough } from "node:stream";
import type { CommandIo } from "../../server/src/command-io.js";

/**
 * A command's output captured as a pipe (or, with `tty`, a terminal) would get it.
 *
 * @example
 * ```ts
 * const run = capturedIo({ DATA_DIR: dir });
 * expect(await exportCommand(["--help"], run.io)).toBe(0);
 * expect(run.out()).toContain("Usage");
 * ```
 */
export function capturedIo(env: Record<string, string>, options: { tty?: boolean } = {}): { io: CommandIo; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  const stdout = new PassThrough().on("data", (c: Buffer) => (out += c.toString()));
  const stderr = Object.assign(
    new PassThrough().on("data", (c: Buffer) => (err += c.toString())),
    options.tty === true ? { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true } : {},
  );
  return { io: { env, stdout, stderr }, out: () => out, err: () => err };
}
