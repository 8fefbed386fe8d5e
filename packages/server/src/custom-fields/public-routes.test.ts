import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { userHash } from "../users/identity.js";

describe.each(testDialects())("public custom fields on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  const boards: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    for (const body of [{ name: "Bugs" }, { name: "Beta", visibility: "private" }]) {
      const res = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/boards`, body);
      boards[res.body.slug] = res.body.id;
    }
    const add = async (body: Record<string, unknown>) => expect((await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/fields`, body)).status).toBe(201);
    await add({ label: "Plan", type: "single_select", appliesTo: ["feature_request", "feedback"], required: true, options: [{ value: "pro", label: "Pro" }] });
    await add({ label: "Steps to reproduce", key: "steps", type: "long_text", appliesTo: ["feature_request"], boardId: boards.bugs });
    await add({ label: "Beta build", key: "build", type: "text", appliesTo: ["feature_request"], boardId: boards.beta });
    await add({ label: "Old", type: "checkbox", appliesTo: ["feedback"] });
    const old = (await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}/fields`)).body.fields.find((f: { key: string }) => f.key === "old");
    await acme.console.delete(`/workspaces/${acme.wsId}/fields/${old.id}`);
  });
  afterAll(() => t.close());

  const keys = async (query = "", headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: `/api/v1/public/apps/${acme.appKey}/fields${query}`, headers });
    return { status: res.statusCode, body: res.json(), headers: res.headers, keys: res.statusCode === 200 ? (res.json().fields as { key: string }[]).map((f) => f.key) : [] };
  };

  it("lists the active app-wide fields and the default board's own, with what a form needs and nothing else", async () => {
    const res = await keys();
    expect(res.keys).toEqual(["plan"]);
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    expect(res.body.fields[0]).toEqual({ key: "plan", label: "Plan", description: "", type: "single_select", required: true, appliesTo: ["feature_request", "feedback"], options: [{ value: "pro", label: "Pro" }], limits: {}, position: 0 });
  });

  it("lists a board's own fields beside the app-wide ones; a private board only for callers it admits", async () => {
    expect((await keys("?board=bugs")).keys).toEqual(["plan", "steps"]);
    expect((await keys("?board=beta")).body.code).toBe("unknown_board");
    expect((await keys("?board=nope")).body.code).toBe("unknown_board");
    const signed = { "x-user-token": "tester", "x-user-hash": userHash(acme.signingSecret, "tester") };
    expect((await keys("?board=beta", signed)).keys).toEqual(["plan", "build"]);
  });

  it("answers an unknown app like every public route", async () => {
    const res = await t.app.inject({ url: "/api/v1/public/apps/app_nope/fields" });
    expect([res.statusCode, res.json().code]).toEqual([404, "app_not_found"]);
  });
});
