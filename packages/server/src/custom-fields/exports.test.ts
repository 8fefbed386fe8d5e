import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importArchive } from "../portability/archive-import.js";
import { exportCommand } from "../portability/export-command.js";
import { capturedIo } from "@tidings/testing/command-io";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { databaseUrl, testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("custom fields in tidings export on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let dir: string;
  let env: Record<string, string>;
  let requestId: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-fields-export-"));
    env = { DATA_DIR: dir, DATABASE_URL: databaseUrl(t.database), LOG_LEVEL: "silent" };
    const fieldsUrl = `/workspaces/${acme.wsId}/apps/${acme.appId}/fields`;
    const ids: string[] = [];
    for (const body of [
      { label: "Company", type: "text", appliesTo: ["feature_request"] },
      { label: "Platforms", type: "multi_select", appliesTo: ["feature_request"], options: [{ value: "ios", label: "iOS" }, { value: "web", label: "Web" }] },
      { label: "Urgent", type: "checkbox", appliesTo: ["feature_request"] },
      { label: "Legacy", type: "number", appliesTo: ["feature_request"] },
    ]) {
      ids.push((await acme.console.post(fieldsUrl, body)).body.id);
    }
    const created = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, {
      appId: acme.appId,
      title: "Dark mode",
      fields: { company: "=Acme, Inc.", platforms: ["web", "ios"], urgent: true, legacy: 7 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    requestId = created.body.id;
    await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title: "Offline mode" });
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/fields/${ids[3]}`)).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes one CSV column per field, archived ones marked, values as a spreadsheet reads them", async () => {
    const out = path.join(dir, "requests.csv");
    const run = capturedIo(env);
    expect(await exportCommand(["--app", acme.appKey, "--format", "csv", "--out", out], run.io), run.err()).toBe(0);
    const [header, ...rows] = fs.readFileSync(out, "utf8").trimEnd().split("\r\n");
    expect(header).toBe(
      "id,title,description,status,votes,comments,author_name,author_email,version,moderation,merged_into,created_at,updated_at,companies,company_revenue,company_names,board,tags,field.company,field.platforms,field.urgent,field.legacy (archived)",
    );
    const dark = rows.find((r) => r.startsWith(requestId))!;
    expect(dark.endsWith(`,"'=Acme, Inc.",web; ios,true,7`)).toBe(true);
    const offline = rows.find((r) => r.includes("Offline mode"))!;
    expect(offline.endsWith(",,,,")).toBe(true);
  });

  it("carries the definitions and values in the archive, and another server reads them back as they were", async () => {
    const out = path.join(dir, "acme.jsonl");
    expect(await exportCommand(["--app", acme.appKey, "--out", out], capturedIo(env).io)).toBe(0);
    const lines = fs.readFileSync(out, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { type: string; table?: string; row?: Record<string, unknown>; counts?: Record<string, number> });
    expect(lines.at(-1)!.counts).toMatchObject({ customFields: 4 });
    expect(lines.find((l) => l.table === "featureRequests" && l.row!.id === requestId)!.row!.customFields).toEqual(expect.stringContaining('"web","ios"'));

    const target = await createTestApp(dialect);
    try {
      const summary = await importArchive(target.database.db, target.app.ctx.storage, fs.createReadStream(out), { workspaceId: (await consoleClient(target.app, target.admin.authorization).post("/workspaces", { name: "Copy", slug: "copy" })).body.workspace.id });
      expect(summary.inserted).toMatchObject({ customFields: 4, featureRequests: 2 });
      const wsId = (await target.app.ctx.db.kysely.selectFrom("apps").select("workspaceId").where("appKey", "=", acme.appKey).executeTakeFirstOrThrow()).workspaceId;
      const copy = consoleClient(target.app, target.admin.authorization);
      const original = (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${requestId}`)).body.fields;
      expect(original.map((f: { key: string; archived: boolean }) => [f.key, f.archived])).toEqual([["company", false], ["platforms", false], ["urgent", false], ["legacy", true]]);
      expect((await copy.get(`/workspaces/${wsId}/feature-requests/${requestId}`)).body.fields).toEqual(original);
    } finally {
      await target.close();
    }
  });
});
