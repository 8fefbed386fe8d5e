import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console filters on custom fields on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  const requests: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    const options = (...values: string[]) => values.map((value) => ({ value, label: value }));
    for (const body of [
      { label: "Company", type: "text", appliesTo: ["feature_request", "feedback"] },
      { label: "Seats", type: "number", appliesTo: ["feature_request"] },
      { label: "Plan", type: "single_select", appliesTo: ["feature_request", "feedback"], options: options("free", "pro") },
      { label: "Platforms", type: "multi_select", appliesTo: ["feature_request", "feedback"], options: options("ios", "android", "web") },
      { label: "Urgent", type: "checkbox", appliesTo: ["feature_request"] },
    ]) {
      expect((await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/fields`, body)).status).toBe(201);
    }
    const create = async (title: string, fields: Record<string, unknown>) => {
      const res = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, fields });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      requests[title] = res.body.id;
    };
    await create("Alpha", { company: `O'Brien "&" Co`, seats: 12, plan: "pro", platforms: ["ios", "web"], urgent: true });
    await create("Beta", { company: "Acme", seats: 12.5, plan: "free", platforms: ["web"], urgent: false });
    await create("Gamma", { company: "acme", seats: 3, platforms: ["android", "ios"] });
    await create("Delta", {});
  });
  afterAll(() => t.close());

  const titles = async (query: string) => {
    const res = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(res.body.requests.length);
    return (res.body.requests as { title: string }[]).map((r) => r.title).sort();
  };

  it("keeps requests whose text or option equals the value exactly", async () => {
    expect(await titles("field.plan=pro")).toEqual(["Alpha"]);
    expect(await titles("field.plan=free")).toEqual(["Beta"]);
    expect(await titles("field.company=Acme")).toEqual(["Beta"]);
    expect(await titles(`field.company=${encodeURIComponent(`O'Brien "&" Co`)}`)).toEqual(["Alpha"]);
    expect(await titles("field.company=Ac")).toEqual([]);
  });

  it("compares numbers as numbers and checkboxes as true or false", async () => {
    expect(await titles("field.seats=12")).toEqual(["Alpha"]);
    expect(await titles("field.seats=12.0")).toEqual(["Alpha"]);
    expect(await titles("field.seats=12.5")).toEqual(["Beta"]);
    expect(await titles("field.urgent=true")).toEqual(["Alpha"]);
    expect(await titles("field.urgent=false")).toEqual(["Beta"]);
  });

  it("keeps requests whose multi select holds the option; repeated and combined filters must all match", async () => {
    expect(await titles("field.platforms=ios")).toEqual(["Alpha", "Gamma"]);
    expect(await titles("field.platforms=ios&field.platforms=web")).toEqual(["Alpha"]);
    expect(await titles("field.platforms=web&field.plan=free")).toEqual(["Beta"]);
    expect(await titles("field.platforms=ios&q=gamma")).toEqual(["Gamma"]);
  });

  it("refuses an unknown key, a value its type cannot read, and a filter without its app, naming the parameter", async () => {
    for (const [query, named] of [
      [`appId=${acme.appId}&field.colour=red`, "field.colour"],
      [`appId=${acme.appId}&field.seats=many`, "field.seats"],
      [`appId=${acme.appId}&field.seats=`, "field.seats"],
      [`appId=${acme.appId}&field.urgent=yes`, "field.urgent"],
      ["field.plan=pro", "field.plan"],
    ] as const) {
      const res = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?${query}`);
      expect([res.status, res.body.code, Object.keys(res.body.details.fieldErrors)], query).toEqual([400, "validation_failed", [named]]);
    }
  });

  it("filters the feedback inbox the same way, within the workspace's apps", async () => {
    for (const fields of [{ plan: "pro", platforms: ["ios"] }, { plan: "free", platforms: ["ios", "web"] }]) {
      const res = await t.app.inject({ method: "POST", url: "/api/v1/feedback", headers: { "x-user-token": "alice" }, payload: { appKey: acme.appKey, title: `Feedback on ${fields.plan}`, platform: "web", fields } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const inbox = async (query: string) => {
      const res = await acme.console.get(`/workspaces/${acme.wsId}/submissions?${query}`);
      return res.status === 200 ? (res.body.submissions as { title: string }[]).map((s) => s.title).sort() : res.body.code;
    };
    expect(await inbox(`appId=${acme.appId}&field.platforms=ios`)).toEqual(["Feedback on free", "Feedback on pro"]);
    expect(await inbox(`app_id=${acme.appId}&field.platforms=web&field.plan=free`)).toEqual(["Feedback on free"]);
    expect(await inbox("field.plan=pro")).toBe("validation_failed");
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    expect(await inbox(`appId=${other.appId}&field.plan=pro`)).toBe("app_not_found");
  });
});
