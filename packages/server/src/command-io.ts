import { ConfigError, loadConfig, type Config } from "./config.js";

/** Where a command reads its settings and writes its output. */
export interface CommandIo {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * The settings a command reads, the same as `tidings serve`; undefined once it has told the user
 * what is wrong with them (every command then exits with 2).
 *
 * @example
 * ```ts
 * const config = commandConfig(io);
 * if (config === undefined) return 2;
 * ```
 */
export function commandConfig(io: CommandIo): Config | undefined {
  try {
    return loadConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`Invalid configuration: ${error.message}\n`);
    return undefined;
  }
}
