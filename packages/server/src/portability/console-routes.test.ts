import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_APP_KEY } from "../demo/seed-demo.js";
import { consoleClient } from "@tidings/testing/console-client";
import { testDialects } from "@tidings/testing/test-database";
import { createUploadTestApp, type UploadTestApp } from "@tidings/testing/uploads-kit";

describe.each(testDialects())("console export and import on %s", (dialect) => {
  let source: UploadTestApp;
  let target: UploadTestApp;
  let demo: { id: string; workspaceId: string };
  let targetWs: string;
  beforeAll(async () => {
    source = await createUploadTestApp(dialect);
    demo = await source.app.ctx.db.kysely.selectFrom("apps").select(["id", "workspaceId"]).where("appKey", "=", DEMO_APP_KEY).executeTakeFirstOrThrow();
    target = await createUploadTestApp(dialect, { demo: false });
    const created = await consoleClient(target.app, target.admin.authorization).post("/workspaces", { name: "Moved in", slug: "moved-in" });
    expect(created.status).toBe(201);
    targetWs = created.body.workspace.id;
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  const download = (url: string, authorization = source.admin.authorization) => source.app.inject({ method: "GET", url: `/api/v1/console${url}`, headers: { authorization } });
  const upload = (payload: string, authorization = target.admin.authorization) =>
    target.app.inject({ method: "POST", url: `/api/v1/console/workspaces/${targetWs}/import`, headers: { authorization, "content-type": "application/x-ndjson" }, payload });

  it("downloads the app as an archive file, and its requests as CSV", async () => {
    const res = await download(`/workspaces/${demo.workspaceId}/apps/${demo.id}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="demo-app-archive-\d{4}-\d{2}-\d{2}\.jsonl"/);
    const lines = res.body.trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: "tidings-archive", scope: { kind: "app", appKey: DEMO_APP_KEY } });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "end", counts: { featureRequests: 12 } });

    const csv = await download(`/workspaces/${demo.workspaceId}/apps/${demo.id}/export?format=csv`);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.body.split("\r\n")[0]).toBe("id,title,description,status,votes,comments,author_name,author_email,version,moderation,merged_into,created_at,updated_at,companies,company_revenue,company_names,board,tags");

    const ws = await download(`/workspaces/${demo.workspaceId}/export`);
    expect(ws.statusCode).toBe(200);
    expect(JSON.parse(ws.body.split("\n")[0]!)).toMatchObject({ scope: { kind: "workspace", slug: "demo" } });

    expect((await download(`/workspaces/${demo.workspaceId}/apps/${demo.id}/export`, "Bearer wrong")).statusCode).toBe(401);
    expect((await download(`/workspaces/${demo.workspaceId}/apps/app_00000000000000000000000000/export`)).json()).toMatchObject({ code: "app_not_found" });
    expect((await download(`/workspaces/${demo.workspaceId}/apps/${demo.id}/export?format=xml`)).statusCode).toBe(400);
  });

  it("uploads the archive into another server's workspace, where the roadmap shows the same requests and votes; again changes nothing", async () => {
    const archive = (await download(`/workspaces/${demo.workspaceId}/apps/${demo.id}/export`)).body;
    const res = await upload(archive);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ scope: { kind: "app", appKey: DEMO_APP_KEY }, inserted: { apps: 1, featureRequests: 12, featureRequestVotes: 191 } });
    const imported = await target.app.ctx.db.kysely.selectFrom("apps").select(["id", "workspaceId"]).where("appKey", "=", DEMO_APP_KEY).executeTakeFirstOrThrow();
    expect(imported).toEqual({ id: demo.id, workspaceId: targetWs });

    const listing = (app: UploadTestApp) => app.app.inject({ method: "GET", url: `/api/v1/feature-requests?appKey=${DEMO_APP_KEY}&sort=top&limit=50` });
    const strip = (body: { requests: { title: string; voteCount: number; commentCount: number; status?: unknown }[] }) =>
      body.requests.map((r) => ({ title: r.title, voteCount: r.voteCount, commentCount: r.commentCount, status: r.status }));
    expect(strip((await listing(target)).json())).toEqual(strip((await listing(source)).json()));

    const again = await upload(archive);
    expect(again.statusCode).toBe(200);
    expect(again.json().inserted).toEqual({});
  });

  it("answers 400 invalid_archive with the line, and 409 archive_conflict for an app key taken here", async () => {
    const bad = await upload('{"type":"tidings-archive","version":1,"scope":{"kind":"app","appKey":"x"}}\n{"type":"row","table":"secrets","row":{}}\n');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'line 2: unknown table "secrets"', code: "invalid_archive", details: { line: 2 } });
    const empty = await upload("");
    expect(empty.statusCode).toBe(400);
    const notJson = await target.app.inject({ method: "POST", url: `/api/v1/console/workspaces/${targetWs}/import`, headers: { authorization: target.admin.authorization }, payload: "x" });
    expect(notJson.statusCode).toBeGreaterThanOrEqual(400);
    expect(notJson.statusCode).toBeLessThan(500);

    // The source server's own demo app holds the key under another id than a fresh demo app.
    const other = await createUploadTestApp(dialect);
    try {
      const foreign = (await download(`/workspaces/${demo.workspaceId}/apps/${demo.id}/export`)).body;
      const ws = await consoleClient(other.app, other.admin.authorization).post("/workspaces", { name: "Other", slug: "other" });
      const res = await other.app.inject({
        method: "POST",
        url: `/api/v1/console/workspaces/${ws.body.workspace.id}/import`,
        headers: { authorization: other.admin.authorization, "content-type": "application/x-ndjson" },
        payload: foreign,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: "archive_conflict" });
    } finally {
      await other.close();
    }
  });
});

describe("console import over a real connection", () => {
  it("answers a large refused upload with 400 once the body is read, instead of leaving the browser sending", async () => {
    const t = await createUploadTestApp("sqlite", { demo: false });
    try {
      const ws = await consoleClient(t.app, t.admin.authorization).post("/workspaces", { name: "Drain", slug: "drain-test" });
      await t.app.listen({ port: 0, host: "127.0.0.1" });
      const address = t.app.server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${address.port}/api/v1/console/workspaces/${ws.body.workspace.id}/import`, {
        method: "POST",
        headers: { authorization: t.admin.authorization, "content-type": "application/x-ndjson" },
        body: `not json\n${"x".repeat(8_000_000)}\n`,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "invalid_archive", details: { line: 1 } });
    } finally {
      await t.close();
    }
  });
});
