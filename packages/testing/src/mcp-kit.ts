import type { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { consoleClient, createWorkspaceWithApp } from "./console-client.js";
import { CLI } from "./server-process.js";
import { databaseUrl } from "./test-database.js";
import type { TestApp } from "./test-app.js";
import { expect } from "vitest";

/** The public base every MCP test server links under. */
export const PUBLIC_URL = "https://feedback.example.com";

/** A connected MCP client and how to read what the server printed on stderr (stdio). */
export interface Connection {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** A client of `POST /mcp` on a listening test server, sending `token` as its bearer. */
export async function connectHttp(baseUrl: string, token: string): Promise<Connection> {
  const client = new Client({ name: "tidings-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, stderr: () => "", close: () => client.close() };
}

/**
 * The real `tidings mcp` (the built CLI) in a child process on the test app's database, with
 * `token` as TIDINGS_TOKEN, and a client over its stdio.
 */
export async function connectStdio(t: TestApp, token: string): Promise<Connection> {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp"],
    env: { DATABASE_URL: databaseUrl(t.database), DATA_DIR: "/nonexistent-test-data", PUBLIC_URL, TIDINGS_TOKEN: token, LOG_LEVEL: "silent" },
    stderr: "pipe",
  });
  const pipe = transport.stderr as PassThrough | null;
  pipe?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "tidings-tests", version: "1.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    // The connection ends when the process has exited, its stderr read to the end.
    throw new Error(`tidings mcp did not start (${String(error)}): ${stderr}`, { cause: error });
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** What a tool answered: its JSON, and whether it is a tool error. */
export async function call(connection: Connection, name: string, args: Record<string, unknown> = {}) {
  const result = await connection.client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  const text = content[0]?.text ?? "";
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it checks
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // A message of the SDK's own (unknown tool, invalid input) is plain text.
  }
  return { isError: result.isError === true, body, text };
}

/** The workspace the MCP tests work in: one app, its requests, votes, feedback, and tokens. */
export async function seedWorkspace(t: TestApp, slug: string) {
  let calls = 0;
  // Public calls from ever-new addresses: the suite is about the tools, not per-IP limits.
  const from = () => `10.9.${(++calls >> 8) & 255}.${calls & 255}`;
  const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, slug);
  expect((await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "none" })).status).toBe(200);
  const columns = Object.fromEntries(
    ((await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/columns`)).body.columns as { slug: string; id: string }[]).map((c) => [c.slug, c.id]),
  ) as Record<string, string>;
  const create = async (title: string, description: string, columnSlug: string) => {
    const res = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title, description, columnSlug });
    expect(res.status).toBe(201);
    t.clock.advance(1000);
    return res.body.id as string;
  };
  const vote = async (id: string, voter: string) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, remoteAddress: from(), headers: { "x-user-token": voter }, payload: {} });
    expect(res.statusCode).toBe(200);
  };

  const since = t.clock.now().toISOString();
  const ids = {
    darkMode: await create("Dark mode", "Easier on the eyes at night", "planned"),
    nightTheme: await create("Night theme", "A dark theme for the evening", "under-review"),
    sso: await create("Single sign-on", "Sign in with the company's identity provider", "in-progress"),
    csvExport: await create("CSV export", "Export every request to a spreadsheet", "shipped"),
  };
  for (const voter of ["v1", "v2", "v3"]) await vote(ids.darkMode, voter);
  await vote(ids.nightTheme, "v1");
  await vote(ids.nightTheme, "v4");
  await vote(ids.sso, "whale");
  // The host app reports the whale as paying 50.00 a month.
  await t.database.db.kysely
    .updateTable("endUsers")
    .set({ isPaying: 1, mrrCents: 5000, plan: "enterprise", currency: "USD" })
    .where("appId", "=", ws.appId)
    .where("id", "in", t.database.db.kysely.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", ids.sso))
    .execute();
  const tag = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/tags`, { name: "Accessibility" });
  expect(tag.status).toBe(201);
  await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/feature-requests/tags`, { featureRequestIds: [ids.darkMode], add: [tag.body.id] });
  const comment = await t.app.inject({
    method: "POST",
    url: `/api/v1/feature-requests/${ids.darkMode}/comments`,
    remoteAddress: from(),
    headers: { "x-user-token": "v2" },
    payload: { body: "Please follow the system setting", authorName: "Vera" },
  });
  expect(comment.statusCode).toBe(201);
  const feedback = await t.app.inject({
    method: "POST",
    url: "/api/v1/feedback",
    remoteAddress: from(),
    headers: { "x-user-token": "v3" },
    payload: { appKey: ws.appKey, title: "Crash on launch", description: "The app closes right after the splash screen", platform: "ios", reporterName: "Ivo" },
  });
  expect(feedback.statusCode).toBe(201);
  const moved = await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${ids.sso}`, { columnSlug: "shipped" });
  expect(moved.status).toBe(200);
  // One move after the other, so "newest first" has one answer.
  t.clock.advance(1000);
  await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${ids.sso}`, { columnSlug: "in-progress" });

  const owner = await ws.console.post(`/workspaces/${ws.wsId}/members`, { email: `owner@${slug}.example.com`, role: "owner" });
  const mint = async (grant: Record<string, unknown>) => {
    const res = await ws.console.post(`/users/${owner.body.member.userId}/tokens`, { name: "assistant", ...grant });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, token: res.body.token as string };
  };
  const tokens = {
    readWrite: await mint({ workspaceId: ws.wsId }),
    read: await mint({ scope: "read", workspaceId: ws.wsId }),
    revocable: await mint({ workspaceId: ws.wsId }),
  };
  const revoke = async (tokenId: string) => {
    const res = await consoleClient(t.app, `Bearer ${tokens.readWrite.token}`).delete(`/tokens/${tokenId}`);
    expect(res.status).toBe(200);
  };
  return { ...ws, columns, ids, tagId: tag.body.id as string, feedbackId: feedback.json().submissionId as string, since, tokens, revoke };
}

/** Another workspace whose only member has an unbound token: it must see nothing of the first. */
export async function seedOtherWorkspace(t: TestApp, slug: string) {
  const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, slug);
  const created = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: "Their secret plan", description: "" });
  const member = await ws.console.post(`/workspaces/${ws.wsId}/members`, { email: `otto@${slug}.example.com`, role: "owner" });
  const minted = await ws.console.post(`/users/${member.body.member.userId}/tokens`, { name: "otto" });
  return { ...ws, requestId: created.body.id as string, token: minted.body.token as string };
}
