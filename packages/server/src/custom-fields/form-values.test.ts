import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { parseWebhookAllow } from "../webhooks/address-guard.js";

type RecordField = { id: string; key: string; label: string; type: string; value: unknown; archived: boolean };

describe.each(testDialects())("custom field values on forms on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS, webhookAllow: parseWebhookAllow("127.0.0.1/32") });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "none" });
    const bugs = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/boards`, { name: "Bugs" });
    const standard = (await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}/boards`)).body.boards.find((b: { isDefault: boolean }) => b.isDefault);
    for (const body of [
      { label: "Plan", type: "single_select", appliesTo: ["feature_request", "feedback"], required: true, options: [{ value: "free", label: "Free" }, { value: "pro", label: "Pro" }] },
      { label: "Seats", type: "number", appliesTo: ["feature_request"], limits: { min: 1, integer: true } },
      { label: "Platforms", type: "multi_select", appliesTo: ["feedback"], options: [{ value: "ios", label: "iOS" }, { value: "web", label: "Web" }] },
      { label: "Use case", key: "use_case", type: "long_text", appliesTo: ["feature_request"], boardId: standard.id },
      { label: "Steps", type: "long_text", appliesTo: ["feature_request"], required: true, boardId: bugs.body.id },
    ]) {
      const res = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/fields`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids[res.body.key] = res.body.id;
    }
    const hook = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/webhooks`, { url: "http://127.0.0.1:9/hook", events: ["request.created", "feedback.submitted"] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  });
  afterAll(() => t.close());

  const propose = (payload: Record<string, unknown>) => t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "alice" }, payload: { appKey: acme.appKey, ...payload } });
  const sendFeedback = (payload: Record<string, unknown>) => t.app.inject({ method: "POST", url: "/api/v1/feedback", headers: { "x-user-token": "alice" }, payload: { appKey: acme.appKey, platform: "web", ...payload } });
  const record = async (id: string) => (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}`)).body as { fields: RecordField[] };
  const submission = async (id: string) => (await acme.console.get(`/workspaces/${acme.wsId}/submissions/${id}`)).body.submission as { fields: RecordField[] };
  const requestCount = async () => (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}`)).body.total as number;
  const submissionCount = async () => (await acme.console.get(`/workspaces/${acme.wsId}/submissions?appId=${acme.appId}`)).body.total as number;
  const webhookData = async (type: string) => {
    const rows = await t.app.ctx.db.kysely.selectFrom("webhookDeliveries").select("event").where("appId", "=", acme.appId).where("eventType", "=", type).orderBy("createdAt").orderBy("id").execute();
    return (JSON.parse(rows.at(-1)!.event) as { data: Record<string, Record<string, unknown>> }).data;
  };

  it("stores a proposal's fields and shows them on the console record and in the request.created webhook", async () => {
    const res = await propose({ title: "Dark mode", fields: { plan: "pro", seats: 12, use_case: "  Night shifts  " } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().featureRequestId as string;
    const expected = [
      { id: ids.plan, key: "plan", label: "Plan", type: "single_select", value: "pro", archived: false },
      { id: ids.seats, key: "seats", label: "Seats", type: "number", value: 12, archived: false },
      { id: ids.use_case, key: "use_case", label: "Use case", type: "long_text", value: "Night shifts", archived: false },
    ];
    expect((await record(id)).fields).toEqual(expected);
    expect((await webhookData("request.created")).request).toMatchObject({ id, title: "Dark mode", fields: expected });
    // The public item carries no field values: they are the team's.
    expect((await t.app.inject({ url: `/api/v1/feature-requests/${id}?appKey=${acme.appKey}` })).json()).not.toHaveProperty("fields");
  });

  it("refuses a proposal with a bad or missing value with 400 naming the field, and writes nothing", async () => {
    const before = await requestCount();
    for (const [fields, named] of [
      [{}, "fields.plan"],
      [{ plan: "gold" }, "fields.plan"],
      [{ plan: "pro", seats: 0 }, "fields.seats"],
      [{ plan: "pro", seats: "12" }, "fields.seats"],
      [{ plan: "pro", platforms: ["ios"] }, "fields.platforms"],
      [{ plan: "pro", steps: "1. Open" }, "fields.steps"],
      [{ plan: "pro", colour: "red" }, "fields.colour"],
    ] as const) {
      const res = await propose({ title: "Offline mode", fields });
      expect([res.statusCode, res.json().code], JSON.stringify(fields)).toEqual([400, "validation_failed"]);
      expect(Object.keys(res.json().details.fieldErrors), JSON.stringify(fields)).toEqual([named]);
    }
    expect(await requestCount()).toBe(before);
  });

  it("asks a proposal to another board for that board's own fields, not the default board's", async () => {
    const refused = await propose({ title: "Crash on save", board: "bugs", fields: { plan: "pro", use_case: "Night shifts" } });
    expect([refused.statusCode, refused.json().details.fieldErrors]).toEqual([400, { "fields.use_case": ["Unknown field"], "fields.steps": ["Required"] }]);
    const res = await propose({ title: "Crash on save", board: "bugs", fields: { plan: "pro", steps: "1. Open 2. Save" } });
    expect(res.statusCode, res.body).toBe(201);
    expect((await record(res.json().featureRequestId)).fields.map((f) => [f.key, f.value])).toEqual([
      ["plan", "pro"],
      ["steps", "1. Open 2. Save"],
    ]);
  });

  it("checks a team request's fields like a proposal's", async () => {
    const url = `/workspaces/${acme.wsId}/feature-requests`;
    const refused = await acme.console.post(url, { appId: acme.appId, title: "From the team" });
    expect([refused.status, refused.body.details.fieldErrors]).toEqual([400, { "fields.plan": ["Required"] }]);
    const created = await acme.console.post(url, { appId: acme.appId, title: "From the team", fields: { plan: "free" } });
    expect(created.status).toBe(201);
    expect(created.body.fields).toEqual([{ id: ids.plan, key: "plan", label: "Plan", type: "single_select", value: "free", archived: false }]);
  });

  it("lets the team change the values it names, checked against the request's board, keeping the others as stored", async () => {
    const id = (await propose({ title: "Team edits", fields: { plan: "pro", seats: 12 } })).json().featureRequestId as string;
    const edit = (fields: Record<string, unknown>) => acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}`, { fields });
    const values = async () => Object.fromEntries((await record(id)).fields.map((f) => [f.key, f.value]));
    // Seats now needs 20 or more: the stored 12 stays, untouched by an edit of another field.
    const seatsUrl = `/workspaces/${acme.wsId}/fields/${ids.seats}`;
    expect((await acme.console.patch(seatsUrl, { limits: { min: 20, integer: true } })).status).toBe(200);
    const changed = await edit({ plan: "free", use_case: "  Audits  " });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.fields.map((f: RecordField) => [f.key, f.value])).toEqual([["plan", "free"], ["seats", 12], ["use_case", "Audits"]]);
    for (const [fields, errors] of [
      [{ plan: null }, { "fields.plan": ["Required"] }],
      [{ seats: 12, plan: "pro" }, { "fields.seats": ["Must be at least 20"] }],
      [{ steps: "1. Open" }, { "fields.steps": ["Unknown field"] }],
      [{ platforms: ["ios"] }, { "fields.platforms": ["Unknown field"] }],
    ] as const) {
      const res = await edit(fields);
      expect([res.status, res.body.code, res.body.details.fieldErrors], JSON.stringify(fields)).toEqual([400, "validation_failed", errors]);
    }
    expect(await values()).toEqual({ plan: "free", seats: 12, use_case: "Audits" });
    expect((await edit({ seats: null, use_case: "" })).status).toBe(200);
    expect(await values()).toEqual({ plan: "free" });
    expect((await acme.console.patch(seatsUrl, { limits: { min: 1, integer: true } })).status).toBe(200);
    // On the Bugs board its own field is asked, and the default board's is not.
    const bugs = (await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}/boards`)).body.boards.find((b: { slug: string }) => b.slug === "bugs");
    expect((await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/feature-requests/move`, { boardId: bugs.id, featureRequestIds: [id] })).body).toEqual({ moved: 1 });
    expect((await edit({ steps: "1. Open the app" })).status).toBe(200);
    expect((await edit({ use_case: "Audits" })).body.details.fieldErrors).toEqual({ "fields.use_case": ["Unknown field"] });
    expect(await values()).toEqual({ plan: "free", steps: "1. Open the app" });
    const detail = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}`);
    expect(detail.body.events.filter((e: { type: string }) => e.type === "edited")).toHaveLength(3);
  });

  it("stores feedback's fields, shows them in the inbox and the feedback.submitted webhook, and refuses bad ones", async () => {
    const before = await submissionCount();
    const bad = await sendFeedback({ title: "Crash", fields: { plan: "pro", seats: 3 } });
    expect([bad.statusCode, bad.json().details.fieldErrors]).toEqual([400, { "fields.seats": ["Unknown field"] }]);
    expect(await submissionCount()).toBe(before);
    const res = await sendFeedback({ title: "Crash", fields: { plan: "pro", platforms: ["web", "ios"] } });
    expect(res.statusCode, res.body).toBe(201);
    const expected = [
      { id: ids.plan, key: "plan", label: "Plan", type: "single_select", value: "pro", archived: false },
      { id: ids.platforms, key: "platforms", label: "Platforms", type: "multi_select", value: ["web", "ios"], archived: false },
    ];
    expect((await submission(res.json().submissionId)).fields).toEqual(expected);
    const listed = (await acme.console.get(`/workspaces/${acme.wsId}/submissions?appId=${acme.appId}`)).body.submissions[0];
    expect(listed).toMatchObject({ submissionId: res.json().submissionId, fields: expected });
    expect((await webhookData("feedback.submitted")).feedback).toMatchObject({ id: res.json().submissionId, fields: expected });
  });

  it("keeps stored values readable after their option is removed and their field archived", async () => {
    const res = await propose({ title: "Calendar sync", fields: { plan: "free" } });
    const id = res.json().featureRequestId as string;
    const fieldUrl = `/workspaces/${acme.wsId}/fields/${ids.plan}`;
    expect((await acme.console.patch(fieldUrl, { options: [{ value: "pro", label: "Pro" }], label: "Tier" })).status).toBe(200);
    expect((await record(id)).fields).toEqual([{ id: ids.plan, key: "plan", label: "Tier", type: "single_select", value: "free", archived: false }]);
    // The removed option is refused from now on.
    expect((await propose({ title: "Another one", fields: { plan: "free" } })).json().details.fieldErrors).toEqual({ "fields.plan": ["Not an option: free"] });
    expect((await acme.console.delete(fieldUrl)).status).toBe(200);
    expect((await record(id)).fields).toEqual([{ id: ids.plan, key: "plan", label: "Tier", type: "single_select", value: "free", archived: true }]);
    // An archived field is asked no more: its key is unknown to the form.
    expect((await propose({ title: "No plan needed", fields: { plan: "pro" } })).json().details.fieldErrors).toEqual({ "fields.plan": ["Unknown field"] });
    expect((await propose({ title: "No plan needed" })).statusCode).toBe(201);
  });
});
