import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { capturedIo } from "@tidings/testing/command-io";
import { mcpCommand } from "./stdio-command.js";

describe("tidings mcp", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-mcp-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // No input ever arrives: these runs end before the protocol starts.
  const stdin = () => new PassThrough();

  it("prints its usage with --help and exits 0", async () => {
    const run = capturedIo({});
    expect(await mcpCommand(["--help"], run.io, stdin())).toBe(0);
    expect(run.out()).toMatch(/^Usage: tidings mcp/);
    expect(run.out()).toContain("TIDINGS_TOKEN");
  });

  it("exits 2 on an unknown argument, a missing token, or a token that cannot be used, saying why on stderr and nothing on stdout", async () => {
    const unknown = capturedIo({ DATA_DIR: dataDir });
    expect(await mcpCommand(["--port", "3"], unknown.io, stdin())).toBe(2);
    expect(unknown.err()).toMatch(/Unknown argument "--port"/);

    const missing = capturedIo({ DATA_DIR: dataDir });
    expect(await mcpCommand([], missing.io, stdin())).toBe(2);
    expect(missing.err()).toMatch(/TIDINGS_TOKEN is not set/);

    const forged = capturedIo({ DATA_DIR: dataDir, TIDINGS_TOKEN: "tdg_forged" });
    expect(await mcpCommand([], forged.io, stdin())).toBe(2);
    expect(forged.err()).toMatch(/TIDINGS_TOKEN cannot be used: Invalid or revoked API token \(unauthorized\)/);

    const config = capturedIo({ DATA_DIR: dataDir, TIDINGS_TOKEN: "tdg_x", PORT: "not-a-port" });
    expect(await mcpCommand([], config.io, stdin())).toBe(2);
    expect(config.err()).toMatch(/Invalid configuration/);
    for (const run of [unknown, missing, forged, config]) expect(run.out()).toBe("");
  });
});
