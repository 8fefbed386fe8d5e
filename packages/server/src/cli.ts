#!/usr/bin/env node
import { commandConfig, type CommandIo } from "./command-io.js";
import type { Config } from "./config.js";
import { migrateToLatest } from "./db/migrate.js";
import { openDatabase } from "./db/database.js";
import { findAppByKey } from "./apps/app-keys.js";
import { DEMO_APP_KEY } from "./demo/seed-demo.js";
import { setupLink } from "./console/setup-code.js";
import { banner, setupState, startServer } from "./serve.js";
import { boundHeapGrowth } from "./heap-growth.js";

const USAGE = `Usage: tidings <command>

Commands:
  serve     Run migrations and start the HTTP server (default)
  migrate   Run pending database migrations and exit
  storage   Copy local uploads into an S3 bucket (tidings storage migrate --help)
  import    Import requests, votes and comments from CSV, Canny or Fider (tidings import --help)
  export    Write an app or workspace as an archive, or its requests as CSV (tidings export --help)
  backup    Snapshot the database and the uploads while the server runs (tidings backup --help)
  restore   Restore a backup folder (tidings restore --help)
  mcp       Run the MCP server on stdio for an AI assistant (tidings mcp --help)

Configuration comes from environment variables; see the README.`;

const COMMAND_USAGE: Record<string, string> = {
  serve: `Usage: tidings serve

Runs pending migrations and starts the HTTP server. Settings come from environment variables
(PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL, …; see the README). Stops cleanly on SIGINT or
SIGTERM. Exit codes: 0 stopped cleanly, 1 failed, 2 invalid configuration.`,
  migrate: `Usage: tidings migrate

Runs pending database migrations on DATABASE_URL (default: DATA_DIR/tidings.db) and exits.
Exit codes: 0 up to date, 1 a migration failed, 2 invalid configuration.`,
};

async function serve(config: Config): Promise<void> {
  boundHeapGrowth(config.heapGrowthPercent);
  const server = await startServer(config);
  const hasDemo = (await findAppByKey(server.app.ctx.db.kysely, DEMO_APP_KEY)) !== undefined;
  const setup = await setupState(server.app);
  if (setup.open) {
    // Logged before the banner so a reader of either (or a test waiting for the banner) has both.
    const base = config.publicUrl ?? server.url;
    server.app.log.warn(
      setup.code === null ? { setupUrl: `${base}/admin/` } : { setupUrl: setupLink(base, setup.code), setupCode: setup.code },
      "First-run setup is open: whoever has the setup code can create the owner account",
    );
  }
  process.stdout.write(`${banner(config, server.url, { hasDemo, setup })}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      server.app.log.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    server.app.log.info({ signal }, "shutting down: finishing in-flight requests");
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

async function migrate(config: Config): Promise<void> {
  const db = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(db);
    process.stdout.write(applied.length === 0 ? "Database is up to date.\n" : `Applied: ${applied.join(", ")}\n`);
  } finally {
    await db.destroy();
  }
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? "serve";
  if (command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const io: CommandIo = { env: process.env, stdout: process.stdout, stderr: process.stderr };
  // Each loaded when it runs: `tidings serve` does not hold the importers' parsers or the MCP SDK.
  const subcommands: Record<string, () => Promise<(args: string[], commandIo: CommandIo) => Promise<number>>> = {
    storage: async () => (await import("./storage/storage-command.js")).storageCommand,
    import: async () => (await import("./portability/import-command.js")).importCommand,
    export: async () => (await import("./portability/export-command.js")).exportCommand,
    backup: async () => (await import("./portability/backup-command.js")).backupCommand,
    restore: async () => (await import("./portability/restore-command.js")).restoreCommand,
    mcp: async () => (await import("./mcp/stdio-command.js")).mcpCommand,
  };
  const subcommand = Object.hasOwn(subcommands, command) ? subcommands[command] : undefined;
  if (subcommand !== undefined) {
    process.exitCode = await (await subcommand())(argv.slice(1), io);
    return;
  }
  const commandUsage = COMMAND_USAGE[command];
  if (commandUsage !== undefined && (argv.includes("--help") || argv.includes("-h"))) {
    process.stdout.write(`${commandUsage}\n`);
    return;
  }
  const config = commandConfig(io);
  if (config === undefined) process.exit(2);
  if (command === "serve") return serve(config);
  if (command === "migrate") return migrate(config);
  process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`);
  process.exit(2);
}

// `tidings import --json | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
