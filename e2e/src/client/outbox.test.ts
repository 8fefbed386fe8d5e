import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { FeedbackClient, memoryStorage, type StorageAdapter } from "@tidings/client";
import { Outbox, type OutboxEvent } from "@tidings/client/outbox";
import { afterEach, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "./real-server.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real server over a SQLite folder that outlives it, so a restarted one finds the same data. */
async function serverOverKeptData(env: Record<string, string>, place: { dataDir: string; port?: number }): Promise<RealServer> {
  const server = await startRealServer(env, place);
  cleanups.push(() => server.close());
  return server;
}

function keptDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-outbox-e2e-"));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** The feedback rows the console lists for the app whose title contains `q`. */
async function feedbackRows(server: RealServer, app: { wsId: string; appId: string }, q: string): Promise<number> {
  const page = (await server.consoleCall("GET", `/workspaces/${app.wsId}/submissions?appId=${app.appId}&q=${encodeURIComponent(q)}`)) as unknown as {
    total: number;
  };
  return page.total;
}

function outboxFor(baseUrl: string, appKey: string, storage: StorageAdapter) {
  const client = new FeedbackClient({ baseUrl, appKey, storage, warn: () => undefined });
  const outbox = new Outbox(client, { storage });
  const events: OutboxEvent[] = [];
  outbox.subscribe((event) => events.push(event));
  return { client, outbox, events, sent: () => events.filter((e) => e.type === "sent") };
}

/**
 * A loopback proxy in front of the server that records the requests it forwards and, when
 * armed, lets the next `POST /api/v1/feedback` reach the server but cuts the connection as its
 * answer starts to come back: the server wrote, the client never hears it.
 */
async function answerDroppingProxy(upstreamPort: number) {
  const feedbackPosts: { idempotencyKey: string | undefined }[] = [];
  const state = { dropNextFeedbackAnswer: false };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    const upstream = net.connect(upstreamPort, "127.0.0.1");
    for (const socket of [downstream, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    let sent = "";
    let dropThisAnswer = false;
    downstream.on("data", (chunk: Buffer) => {
      sent += chunk.toString("latin1");
      for (let match; (match = /POST \/api\/v1\/feedback [^\r]*\r\n([\s\S]*?)\r\n\r\n/.exec(sent)); ) {
        const key = /^idempotency-key:\s*(.+)$/im.exec(match[1]!)?.[1]?.trim();
        feedbackPosts.push({ idempotencyKey: key });
        sent = sent.slice(match.index + match[0].length);
        if (state.dropNextFeedbackAnswer) {
          state.dropNextFeedbackAnswer = false;
          dropThisAnswer = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!dropThisAnswer) return void downstream.write(chunk);
      downstream.destroy();
      upstream.destroy();
    });
    downstream.on("close", () => upstream.destroy());
    upstream.on("close", () => downstream.destroy());
    downstream.on("error", () => undefined);
    upstream.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  );
  return { baseUrl: `http://127.0.0.1:${port}`, feedbackPosts, state };
}

/** Production servers require human verification: every attempt then solves the built-in altcha. */
const modes = [
  ["development", {}],
  ["production, with the built-in altcha", { NODE_ENV: "production" }],
] as const;

describe.each(modes)("offline outbox against the real server (%s)", (_mode, env) => {
  it("a submission made while the server is down arrives exactly once after it is back, even across an app restart", async () => {
    const dataDir = keptDataDir();
    const first = await startRealServer(env, { dataDir });
    const app = await first.createApp("outbox-down");
    const { baseUrl, port } = first;
    await first.close();

    const storage = memoryStorage();
    const before = outboxFor(baseUrl, app.appKey, storage);
    const outcome = await before.outbox.submitFeedbackOrQueue({ title: "Queued while down", details: "Sent when the server came back." });
    expect(outcome.status).toBe("queued");
    await before.outbox.flush();
    expect(before.outbox.pending).toHaveLength(1);
    expect(before.outbox.pending[0]!.attempts).toBe(2);

    // The app restarts (a new client and outbox over the same storage), and the server comes back.
    const after = outboxFor(baseUrl, app.appKey, storage);
    expect(await after.outbox.load()).toEqual(before.outbox.pending);
    const back = await serverOverKeptData(env, { dataDir, port });
    await after.outbox.flush();
    expect(after.sent()).toHaveLength(1);
    expect(after.outbox.pending).toEqual([]);
    await after.outbox.flush();
    expect(after.sent()).toHaveLength(1);
    expect(await feedbackRows(back, app, "Queued while down")).toBe(1);
  });

  it("a submission whose answer was lost is sent again under the same key and written once", async () => {
    const server = await serverOverKeptData(env, { dataDir: keptDataDir() });
    const app = await server.createApp("outbox-lost");
    const config = await new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, warn: () => undefined }).getConfig();
    expect(config.verification?.required ?? false).toBe("NODE_ENV" in env);
    const proxy = await answerDroppingProxy(server.port);
    const { outbox, sent } = outboxFor(proxy.baseUrl, app.appKey, memoryStorage());

    proxy.state.dropNextFeedbackAnswer = true;
    const outcome = await outbox.submitFeedbackOrQueue({ title: "Answer lost on the way back", details: "The server wrote it; the app never heard." });
    expect(outcome.status).toBe("queued");
    expect(proxy.feedbackPosts).toHaveLength(1);
    expect(await feedbackRows(server, app, "Answer lost on the way back")).toBe(1);

    await outbox.flush();
    expect(outbox.pending).toEqual([]);
    expect(sent()).toHaveLength(1);
    const [firstPost, retry] = proxy.feedbackPosts;
    expect(proxy.feedbackPosts).toHaveLength(2);
    expect(firstPost!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry!.idempotencyKey).toBe(firstPost!.idempotencyKey);
    // Exactly once needs the server to answer a repeated key with its first answer.
    expect(await feedbackRows(server, app, "Answer lost on the way back")).toBe(1);
  });
});
