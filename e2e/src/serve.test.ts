import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "@tidings/testing/server-process";
import { startSmtpTestServer } from "@tidings/testing/smtp-test-server";
import { testRedisUrl } from "@tidings/testing/test-redis";
import { createThrowawayDatabase } from "./scale-out/services.js";

const ADMIN = "e2e-admin-token-0123456789abcdef";
const running: ServerProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-e2e-"));
  dirs.push(dir);
  return dir;
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

/** Kills every server a test started and waits for each to exit. */
async function stopRunning(): Promise<void> {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await server.exited;
  }
}

afterEach(async () => {
  await stopRunning();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("tidings serve (the embedded default)", () => {
  it("starts on an empty data folder within seconds, prints where to look, and serves the demo config", async () => {
    const dataDir = tempDir();
    const started = Date.now();
    const server = await start({ DATA_DIR: dataDir });
    const res = await fetch(`${server.url}/api/v1/public/config/app_demo`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { appKey: string }).appKey).toBe("app_demo");
    expect(server.output()).toContain(`API base URL:   ${server.url}/api/v1`);
    expect(server.output()).toContain("Demo app key:   app_demo");
    expect(server.output()).toContain(`${server.url}/docs`);
    expect(server.output()).toContain(`Dashboard:      ${server.url}/admin/`);
    expect(server.output()).toContain(`Demo portal:    ${server.url}/p/app_demo`);
    expect(fs.existsSync(path.join(dataDir, "tidings.db"))).toBe(true);
  });

  /** Starts `tidings serve` with a loader hook that writes down every ES module its process loads; `packages()` names their packages. */
  async function startRecorded(env: Record<string, string>): Promise<{ server: ServerProcess; packages(): Set<string> }> {
    const dir = tempDir();
    const log = path.join(dir, "loaded.txt");
    fs.writeFileSync(path.join(dir, "hooks.mjs"), `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }\n`);
    fs.writeFileSync(path.join(dir, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(path.join(dir, "hooks.mjs")).href)});\n`);
    const server = await start({ DATA_DIR: path.join(dir, "data"), NODE_OPTIONS: `--import=${pathToFileURL(path.join(dir, "register.mjs")).href}`, ...env });
    return { server, packages: () => new Set([...fs.readFileSync(log, "utf8").matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((m) => m[1]!)) };
  }

  /** The drivers an instance loads only when its configuration or a first use needs them. */
  const DRIVERS = ["pg", "ioredis", "nodemailer", "@node-rs/argon2"];

  it("loads the tracker SDKs, the MCP SDK, the importers' parsers and the drivers it is not configured for only when they are used, not at start", async () => {
    const { server, packages } = await startRecorded({});
    expect((await fetch(`${server.url}/api/v1/feature-requests?appKey=app_demo`)).status).toBe(200);
    // Refused before any MCP work: an agent without a token loads nothing either.
    expect((await fetch(`${server.url}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
    const loaded = packages();
    // What serving needs is there, so the hook saw the server's modules.
    expect(loaded).toContain("fastify");
    expect(loaded).toContain("kysely");
    // On SQLite, without REDIS_URL or SMTP_URL, having sent no mail and checked no password: no
    // PostgreSQL or Redis client, no mailer, no argon2 binding.
    for (const optional of ["@linear/sdk", "@octokit/rest", "@octokit/webhooks", "@octokit/auth-app", "@modelcontextprotocol/sdk", "zod", "csv-parse", "cli-progress", ...DRIVERS]) {
      expect(loaded, optional).not.toContain(optional);
    }
  });

  it("loads each driver once the configuration or a first use needs it, and works with it", async () => {
    const redisUrl = await testRedisUrl("serve with Redis");
    const postgres = process.env.TEST_DATABASE_URL ? await createThrowawayDatabase(process.env.TEST_DATABASE_URL) : null;
    if (postgres === null && process.env.CI === "true") throw new Error("CI=true but TEST_DATABASE_URL is not set");
    const smtp = await startSmtpTestServer();
    try {
      const { server, packages } = await startRecorded({
        SMTP_URL: smtp.url,
        ...(redisUrl === null ? {} : { REDIS_URL: redisUrl }),
        ...(postgres === null ? {} : { DATABASE_URL: postgres.url }),
      });
      // A wrong password is checked (argon2), and a changelog subscription mails its confirmation.
      const login = await fetch(`${server.url}/api/v1/console/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "nobody@example.com", password: "not the password" }) });
      expect(login.status).toBe(401);
      const subscribed = await fetch(`${server.url}/api/v1/public/apps/app_demo/changelog/subscribe`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "reader@example.com" }) });
      expect(subscribed.status).toBe(201);
      await expect.poll(() => smtp.to("reader@example.com").length, { timeout: 15_000 }).toBe(1);
      const loaded = packages();
      expect(loaded).toContain("nodemailer");
      expect(loaded).toContain("@node-rs/argon2");
      if (redisUrl !== null) expect(loaded).toContain("ioredis");
      if (postgres !== null) expect(loaded).toContain("pg");
    } finally {
      await smtp.close();
      // The server goes before its database does.
      await stopRunning();
      await postgres?.drop();
    }
  });

  it("does not seed the demo with TIDINGS_DEMO=0", async () => {
    const server = await start({ DATA_DIR: tempDir(), TIDINGS_DEMO: "0" });
    expect((await fetch(`${server.url}/api/v1/public/config/app_demo`)).status).toBe(404);
    expect(server.output()).not.toContain("Demo app key");
  });

  it("migrates with `tidings migrate` and reports an up-to-date database the second time", async () => {
    const { execFileSync } = await import("node:child_process");
    const { CLI } = await import("@tidings/testing/server-process");
    const env = { PATH: process.env.PATH ?? "", DATA_DIR: tempDir() };
    const first = execFileSync(process.execPath, [CLI, "migrate"], { env, encoding: "utf8" });
    expect(first).toMatch(/^Applied: 0001-initial, 0002-feature-requests/);
    // The command closed the database before exiting: the last connection folded the WAL in.
    expect(fs.readdirSync(env.DATA_DIR)).toEqual(["tidings.db"]);
    expect(execFileSync(process.execPath, [CLI, "migrate"], { env, encoding: "utf8" })).toBe("Database is up to date.\n");
  });

  it("runs each subcommand, each loaded when it is named", async () => {
    const { execFileSync } = await import("node:child_process");
    const { CLI } = await import("@tidings/testing/server-process");
    const env = { PATH: process.env.PATH ?? "" };
    for (const command of ["import", "export", "backup", "restore", "storage", "mcp"]) {
      expect(execFileSync(process.execPath, [CLI, command, "--help"], { env, encoding: "utf8" })).toMatch(new RegExp(`^Usage: tidings ${command}\\b`));
    }
  });

  it("lets a program that closes its database finish: the close is awaited, the WAL folded in", async () => {
    const { execFileSync } = await import("node:child_process");
    const dir = tempDir();
    // An embedding program with nothing else to wait for: it must still get past destroy().
    const program = `
      import { openDatabase } from "@tidings/server";
      const db = openDatabase(process.argv[1]);
      await db.kysely.schema.createTable("notes").addColumn("body", "text").execute();
      await db.destroy();
      console.log("closed");
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", program, `sqlite:${path.join(dir, "embedded.db")}`], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      encoding: "utf8",
    });
    expect(out).toBe("closed\n");
    expect(fs.readdirSync(dir)).toEqual(["embedded.db"]);
  });

  it("refuses to start with a bad variable and names it", async () => {
    await expect(start({ DATA_DIR: tempDir(), PORT: "http" })).rejects.toThrow(/PORT/);
    await expect(start({ DATA_DIR: tempDir(), TIDINGS_SETUP_CODE: "too short" })).rejects.toThrow(/TIDINGS_SETUP_CODE/);
  });

  it("prints a setup link whose code every instance on the database accepts, until setup is done", async () => {
    const dataDir = tempDir();
    const first = await start({ DATA_DIR: dataDir });
    const second = await start({ DATA_DIR: dataDir });
    const linkOf = (server: ServerProcess) => new RegExp(`Dashboard: +${server.url}/admin/\\?setup=([0-9a-z-]{23}) `).exec(server.output())?.[1];
    const code = linkOf(first);
    expect(code).toBeDefined();
    expect(linkOf(second)).toBe(code);
    // The log carries it too, for deployments that only keep logs.
    expect(first.output()).toMatch(new RegExp(`"setupCode":"${code}"`));

    const setup = (server: ServerProcess, body: Record<string, unknown>) =>
      fetch(`${server.url}/api/v1/console/auth/setup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "owner@acme.example", password: "correct horse battery", name: "Owner", ...body }),
      });
    const without = await setup(second, {});
    expect([without.status, ((await without.json()) as { code: string }).code]).toEqual([403, "invalid_setup_code"]);
    expect((await setup(second, { setupCode: code })).status).toBe(201);
    expect((await setup(first, { setupCode: code })).status).toBe(409);

    const later = await start({ DATA_DIR: dataDir });
    expect(later.output()).toContain(`Dashboard:      ${later.url}/admin/\n`);
    expect(later.output()).not.toContain("setup");
  }, 60_000);

  it("takes the setup code from TIDINGS_SETUP_CODE and keeps it out of the output", async () => {
    const server = await start({ DATA_DIR: tempDir(), TIDINGS_SETUP_CODE: "operator-chosen-code-42" });
    expect(server.output()).toContain("first-run setup asks for the code in TIDINGS_SETUP_CODE");
    expect(server.output()).not.toContain("operator-chosen-code-42");
    const res = await fetch(`${server.url}/api/v1/console/auth/setup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ setupCode: "operator-chosen-code-42", email: "owner@acme.example", password: "correct horse battery", name: "Owner" }),
    });
    expect(res.status).toBe(201);
  });

  it("keeps every acknowledged write after the process is killed", async () => {
    const dataDir = tempDir();
    const first = await start({ DATA_DIR: dataDir, TIDINGS_ADMIN_TOKEN: ADMIN });
    const auth = { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" };
    const ws = await fetch(`${first.url}/api/v1/console/workspaces`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Durable", slug: "durable" }),
    });
    expect(ws.status).toBe(201);
    const wsId = ((await ws.json()) as { workspace: { id: string } }).workspace.id;
    const app = await fetch(`${first.url}/api/v1/console/workspaces/${wsId}/apps`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Durable app" }),
    });
    expect(app.status).toBe(201);
    const { appKey } = (await app.json()) as { appKey: string };
    first.child.kill("SIGKILL");
    await first.exited;

    const second = await start({ DATA_DIR: dataDir, TIDINGS_ADMIN_TOKEN: ADMIN });
    const config = await fetch(`${second.url}/api/v1/public/config/${appKey}`);
    expect(config.status).toBe(200);
    expect(((await config.json()) as { name: string }).name).toBe("Durable app");
  });

  it("finishes an in-flight request on SIGTERM, then exits 0", async () => {
    const server = await start({ DATA_DIR: tempDir(), TIDINGS_ADMIN_TOKEN: ADMIN });
    const body = JSON.stringify({ name: "In flight", slug: "in-flight" });
    const { port } = new URL(server.url);
    // Send half the body, signal the server, then send the rest: the request must still succeed.
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: Number(port),
          method: "POST",
          path: "/api/v1/console/workspaces",
          headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.on("data", (d: Buffer) => (text += d.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.child.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 300);
    });
    const answer = await response;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).workspace.slug).toBe("in-flight");
    const started = Date.now();
    expect(await server.exited).toBe(0);
    // "Connection: close" on answers during shutdown lets it end without waiting for idle sockets.
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
