import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "@tidings/server";
import { afterAll, describe, expect, it } from "vitest";
import { createThrowawayDatabase } from "./scale-out/services.js";
import { startServerProcess, type ServerProcess } from "@tidings/testing/server-process";

/**
 * Votes pour in from many clients at once, the server is killed (SIGKILL) in the middle of them,
 * and a new process on the same database must show every vote that had been answered 200, with
 * counts equal to the stored votes. Votes share transactions and commits (group commit; on
 * PostgreSQL one `apply_votes` call per transaction), so this is where an answer sent before its
 * commit was durable would show.
 */
const ADMIN = "vote-crash-admin-token-0123456789abcdef";
const CLIENTS = 40;
const REQUESTS = 5;
/** Acknowledged votes to wait for before the kill. */
const BEFORE_KILL = 400;
const databaseUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;
if (process.env.CI === "true" && databaseUrl === undefined) throw new Error("CI=true but TEST_DATABASE_URL is not set: the vote crash test runs on PostgreSQL in CI");

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The server's environment for one engine: a data folder, and a database of its own on PostgreSQL. */
async function engineEnv(engine: "sqlite" | "postgres"): Promise<{ env: Record<string, string>; databaseUrl: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-vote-crash-"));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    DATA_DIR: dataDir,
    TIDINGS_ADMIN_TOKEN: ADMIN,
    TIDINGS_DEMO: "0",
    TIDINGS_RATE_LIMIT_VOTE: "1000000/60",
    TIDINGS_RATE_LIMIT_LIST: "1000000/60",
  };
  if (engine === "sqlite") return { env, databaseUrl: `sqlite:${path.join(dataDir, "tidings.db")}` };
  const database = await createThrowawayDatabase(databaseUrl!);
  cleanups.push(() => database.drop());
  return { env: { ...env, DATABASE_URL: database.url }, databaseUrl: database.url };
}

const engines = (["sqlite", "postgres"] as const).filter((e) => e === "sqlite" || databaseUrl !== undefined);

describe.each(engines)("votes when the server is killed mid-stream, on %s", (engine) => {
  it("keeps every acknowledged vote, and counts equal to the stored votes", async () => {
    const { env, databaseUrl: dbUrl } = await engineEnv(engine);
    let server: ServerProcess = await startServerProcess(env, 30_000);
    cleanups.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
      await server.exited;
    });
    const consoleCall = async (method: string, url: string, body: unknown) => {
      const res = await fetch(`${server.url}/api/v1/console${url}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.ok, await res.clone().text()).toBe(true);
      return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const ws = await consoleCall("POST", "/workspaces", { name: "Crash", slug: "crash" });
    const wsId = ws.workspace.id as string;
    const app = await consoleCall("POST", `/workspaces/${wsId}/apps`, { name: "Crash app" });
    await consoleCall("PUT", `/workspaces/${wsId}/apps/${app.appId}/settings`, { allowAnonymousVote: true });
    const ids: string[] = [];
    for (let i = 0; i < REQUESTS; i++) ids.push((await consoleCall("POST", `/workspaces/${wsId}/feature-requests`, { appId: app.appId, title: `Request ${i}` })).id);

    // Each client votes as a new voter each time, on the requests in turn, until the kill.
    const acknowledged: Array<{ id: string; token: string }> = [];
    const sent = new Map<string, number>(ids.map((id) => [id, 0]));
    let killed = false;
    const client = async (c: number) => {
      for (let n = 0; !killed; n++) {
        const id = ids[(c + n) % REQUESTS]!;
        const token = `crash-voter-${c}-${n}`;
        sent.set(id, sent.get(id)! + 1);
        try {
          const res = await fetch(`${server.url}/api/v1/feature-requests/${id}/vote`, {
            method: "POST",
            headers: { "x-user-token": token, "content-type": "application/json" },
            body: "{}",
          });
          if (res.status !== 200) throw new Error(`vote answered ${res.status}: ${await res.text()}`);
          const body = (await res.json()) as { voted: boolean };
          expect(body.voted).toBe(true);
          acknowledged.push({ id, token });
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    while (acknowledged.length < BEFORE_KILL) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = true;
    server.child.kill("SIGKILL");
    await server.exited;
    await Promise.all(clients);
    const answered = [...acknowledged];

    server = await startServerProcess(env, 30_000);
    // What each voter sees: their vote, on the request they voted for.
    const appKey = app.appKey as string;
    for (const { id, token } of answered) {
      const res = await fetch(`${server.url}/api/v1/feature-requests?appKey=${appKey}&limit=50`, { headers: { "x-user-token": token } });
      const page = (await res.json()) as { requests: Array<{ id: string; hasVoted: boolean }> };
      expect({ token, hasVoted: page.requests.find((r) => r.id === id)?.hasVoted }).toEqual({ token, hasVoted: true });
    }
    // Every count equals the votes stored, holds every acknowledged vote and no more than were sent.
    const listed = (await (await fetch(`${server.url}/api/v1/feature-requests?appKey=${appKey}&limit=50`)).json()) as {
      requests: Array<{ id: string; voteCount: number }>;
    };
    const db = openDatabase(dbUrl);
    try {
      for (const id of ids) {
        const rows = await db.kysely.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", id).execute();
        const count = listed.requests.find((r) => r.id === id)!.voteCount;
        expect(count).toBe(rows.length);
        expect(count).toBeGreaterThanOrEqual(answered.filter((a) => a.id === id).length);
        expect(count).toBeLessThanOrEqual(sent.get(id)!);
      }
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
