import { MAX_FIELDS_PER_APP } from "@tidings/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

type Field = { id: string; key: string; label: string; type: string; position: number; archived: boolean; boardId: string | null; options: { value: string; label: string }[]; limits: Record<string, unknown> };

describe.each(testDialects())("console custom fields on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  const fieldsUrl = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/fields`;
  const fieldUrl = (id: string) => `/workspaces/${acme.wsId}/fields/${id}`;
  const fields = async (query = "") => (await acme.console.get(`${fieldsUrl()}${query}`)).body.fields as Field[];
  const add = async (body: Record<string, unknown>) => {
    const res = await acme.console.post(fieldsUrl(), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Field;
  };

  it("creates fields of every type with derived or chosen keys, in order, with each type's limits filled in", async () => {
    const company = await add({ label: "Company name", type: "text", appliesTo: ["feature_request", "feedback"], required: true });
    expect(company).toMatchObject({ key: "company-name", label: "Company name", type: "text", required: true, boardId: null, appliesTo: ["feature_request", "feedback"], options: [], limits: { maxLength: 1000 }, position: 0, archived: false });
    expect(company.id).toMatch(/^fld_[0-9a-z]{26}$/);
    expect(await add({ label: "Story", key: "story", type: "long_text", appliesTo: ["feedback"], limits: { maxLength: 2000 } })).toMatchObject({ key: "story", limits: { maxLength: 2000 }, position: 1 });
    expect(await add({ label: "Seats", type: "number", appliesTo: ["feature_request"], limits: { min: 1, integer: true } })).toMatchObject({ limits: { min: 1, integer: true } });
    expect(await add({ label: "Plan", type: "single_select", appliesTo: ["feature_request"], options: [{ value: "free", label: "Free" }, { value: "pro", label: "Pro" }] })).toMatchObject({ key: "plan", options: [{ value: "free", label: "Free" }, { value: "pro", label: "Pro" }] });
    expect(await add({ label: "Platforms", type: "multi_select", appliesTo: ["feedback"], options: [{ value: "ios", label: "iOS" }], limits: { maxSelected: 1 } })).toMatchObject({ limits: { maxSelected: 1 } });
    // A label starting with a digit still gives a key starting with a letter; a taken one is numbered.
    expect(await add({ label: "2FA enabled", type: "checkbox", appliesTo: ["feedback"] })).toMatchObject({ key: "field-2fa-enabled", limits: {} });
    expect(await add({ label: "Plan", type: "text", appliesTo: ["feedback"] })).toMatchObject({ key: "plan-2" });
    expect((await fields()).map((f) => [f.key, f.position])).toEqual([
      ["company-name", 0],
      ["story", 1],
      ["seats", 2],
      ["plan", 3],
      ["platforms", 4],
      ["field-2fa-enabled", 5],
      ["plan-2", 6],
    ]);
  });

  it("refuses a taken key with 409, and definitions that do not fit their type with 400 naming the part, writing nothing", async () => {
    const before = await fields();
    const taken = await acme.console.post(fieldsUrl(), { label: "Other", key: "plan", type: "text", appliesTo: ["feedback"] });
    expect([taken.status, taken.body.code]).toEqual([409, "slug_taken"]);
    const cases: [Record<string, unknown>, string][] = [
      [{ label: "A", type: "single_select", appliesTo: ["feedback"] }, "options"],
      [{ label: "A", type: "single_select", appliesTo: ["feedback"], options: [{ value: "x", label: "X" }, { value: "x", label: "Y" }] }, "options.1.value"],
      [{ label: "A", type: "text", appliesTo: ["feedback"], options: [{ value: "x", label: "X" }] }, "options"],
      [{ label: "A", type: "text", appliesTo: ["feedback"], limits: { maxLength: 1001 } }, "limits.maxLength"],
      [{ label: "A", type: "checkbox", appliesTo: ["feedback"], limits: { min: 1 } }, "limits.min"],
      [{ label: "A", type: "number", appliesTo: ["feedback"], limits: { min: 2, max: 1 } }, "limits.max"],
      [{ label: "A", type: "multi_select", appliesTo: ["feedback"], options: Array.from({ length: 51 }, (_, i) => ({ value: `v${i}`, label: `V${i}` })) }, "options"],
      [{ label: "A", type: "date", appliesTo: ["feedback"] }, "type"],
      [{ label: "A", type: "text", appliesTo: [] }, "appliesTo"],
      [{ label: "A", type: "text", appliesTo: ["comments"] }, "appliesTo.0"],
      [{ label: "A", type: "text", appliesTo: ["feedback"], key: "Not A Key" }, "key"],
      [{ label: "   ", type: "text", appliesTo: ["feedback"] }, "label"],
      [{ label: "A", type: "text", appliesTo: ["feedback"], colour: "red" }, ""],
    ];
    for (const [body, field] of cases) {
      const res = await acme.console.post(fieldsUrl(), body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, "validation_failed"]);
      if (field !== "") expect(Object.keys(res.body.details.fieldErrors), JSON.stringify(body)).toContain(field);
    }
    expect(await fields()).toEqual(before);
  });

  it("puts a field on one board of the app, for proposals only; another app's board is 404", async () => {
    const bugs = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/boards`, { name: "Bugs" });
    const field = await add({ label: "Steps", type: "long_text", appliesTo: ["feature_request"], boardId: bugs.body.id });
    expect(field.boardId).toBe(bugs.body.id);
    const feedback = await acme.console.post(fieldsUrl(), { label: "Steps 2", type: "long_text", appliesTo: ["feedback"], boardId: bugs.body.id });
    expect([feedback.status, Object.keys(feedback.body.details.fieldErrors)]).toEqual([400, ["appliesTo"]]);
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    const theirs = (await other.console.get(`/workspaces/${other.wsId}/apps/${other.appId}/boards`)).body.boards[0].id as string;
    const foreign = await acme.console.post(fieldsUrl(), { label: "Steps 3", type: "text", appliesTo: ["feature_request"], boardId: theirs });
    expect([foreign.status, foreign.body.code]).toEqual([404, "board_not_found"]);
    // Deleting the board archives its own fields.
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/boards/${bugs.body.id}`)).status).toBe(200);
    expect((await acme.console.get(fieldUrl(field.id))).body).toMatchObject({ archived: true, boardId: bugs.body.id });
    const restore = await acme.console.patch(fieldUrl(field.id), { archived: false });
    expect([restore.status, restore.body.code]).toEqual([404, "board_not_found"]);
    expect((await acme.console.patch(fieldUrl(field.id), { archived: false, boardId: null })).body).toMatchObject({ archived: false, boardId: null });
    expect((await acme.console.delete(fieldUrl(field.id))).status).toBe(200);
  });

  it("relabels, changes options and limits, but never the type or key", async () => {
    const plan = (await fields()).find((f) => f.key === "plan")!;
    const res = await acme.console.patch(fieldUrl(plan.id), { label: "Your plan", required: true, options: [{ value: "pro", label: "Pro" }, { value: "team", label: "Team" }] });
    expect(res.body).toMatchObject({ label: "Your plan", required: true, key: "plan", type: "single_select", options: [{ value: "pro", label: "Pro" }, { value: "team", label: "Team" }] });
    for (const body of [{ type: "text" }, { key: "tier" }, {}, { options: [] }, { limits: { maxLength: 5 } }, { archived: true }]) {
      const refused = await acme.console.patch(fieldUrl(plan.id), body);
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, "validation_failed"]);
    }
    expect((await acme.console.get(fieldUrl(plan.id))).body).toEqual(res.body);
  });

  it("reorders every active field, refusing an order that misses or repeats one", async () => {
    const ids = (await fields()).map((f) => f.id);
    const reversed = [...ids].reverse();
    const res = await acme.console.post(`${fieldsUrl()}/reorder`, { fieldIds: reversed });
    expect(res.body.fields.map((f: Field) => f.id)).toEqual(reversed);
    expect((await fields()).map((f) => [f.id, f.position])).toEqual(reversed.map((id, i) => [id, i]));
    for (const fieldIds of [reversed.slice(1), [...reversed, reversed[0]], [...reversed.slice(1), "fld_00000000000000000000000000"]]) {
      expect((await acme.console.post(`${fieldsUrl()}/reorder`, { fieldIds })).body.code).toBe("invalid_field_order");
    }
  });

  it("archives instead of deleting: the key is free again, the field listed only on request, and restored last", async () => {
    const story = (await fields()).find((f) => f.key === "story")!;
    expect((await acme.console.delete(fieldUrl(story.id))).body).toEqual({ success: true, archived: true });
    const active = await fields();
    expect(active.map((f) => f.key)).not.toContain("story");
    expect(active.map((f) => f.position)).toEqual(active.map((_, i) => i));
    const listed = await fields("?includeArchived=true");
    expect(listed.slice(0, active.length)).toEqual(active);
    expect(listed.slice(active.length).find((f) => f.id === story.id)).toMatchObject({ archived: true });
    const again = await add({ label: "Story", key: "story", type: "text", appliesTo: ["feedback"] });
    const clash = await acme.console.patch(fieldUrl(story.id), { archived: false });
    expect([clash.status, clash.body.code]).toEqual([409, "slug_taken"]);
    expect((await acme.console.delete(fieldUrl(again.id))).status).toBe(200);
    const restored = await acme.console.patch(fieldUrl(story.id), { archived: false });
    expect(restored.body).toMatchObject({ archived: false, position: active.length });
    // Archiving twice is the same as once.
    expect((await acme.console.delete(fieldUrl(again.id))).body).toEqual({ success: true, archived: true });
  });

  it(`allows ${MAX_FIELDS_PER_APP} active fields per app; archived ones do not count`, async () => {
    const count = (await fields()).length;
    for (let i = count; i < MAX_FIELDS_PER_APP; i++) await add({ label: `Extra ${i}`, type: "checkbox", appliesTo: ["feedback"] });
    const refused = await acme.console.post(fieldsUrl(), { label: "One too many", type: "checkbox", appliesTo: ["feedback"] });
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([400, "too_many_fields", { limit: MAX_FIELDS_PER_APP }]);
    const archived = (await fields("?includeArchived=true")).find((f) => f.archived)!;
    expect((await acme.console.patch(fieldUrl(archived.id), { archived: false })).body.code).toBe("too_many_fields");
    const last = (await fields()).at(-1)!;
    expect((await acme.console.delete(fieldUrl(last.id))).status).toBe(200);
    expect((await acme.console.post(fieldsUrl(), { label: "Fits again", type: "checkbox", appliesTo: ["feedback"] })).status).toBe(201);
    expect(await fields()).toHaveLength(MAX_FIELDS_PER_APP);
  });

  it("keeps another workspace's fields out of reach (404), and managing fields to app.configure", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "elsewhere");
    const theirs = await other.console.post(`/workspaces/${other.wsId}/apps/${other.appId}/fields`, { label: "Theirs", type: "text", appliesTo: ["feedback"] });
    for (const res of [await acme.console.get(fieldUrl(theirs.body.id)), await acme.console.patch(fieldUrl(theirs.body.id), { label: "Mine" }), await acme.console.delete(fieldUrl(theirs.body.id))]) {
      expect([res.status, res.body.code]).toEqual([404, "custom_field_not_found"]);
    }
    expect((await other.console.get(`/workspaces/${other.wsId}/fields/${theirs.body.id}`)).body.label).toBe("Theirs");

    const add = await other.console.post(`/workspaces/${other.wsId}/members`, { email: "mo@example.com", role: "member" });
    const token = await other.console.post(`/users/${add.body.member.userId}/tokens`, { name: "laptop" });
    const member = consoleClient(t.app, `Bearer ${token.body.token}`);
    expect((await member.get(`/workspaces/${other.wsId}/apps/${other.appId}/fields`)).body.fields).toHaveLength(1);
    const refused = await member.post(`/workspaces/${other.wsId}/apps/${other.appId}/fields`, { label: "Mine", type: "text", appliesTo: ["feedback"] });
    expect([refused.status, refused.body.code]).toEqual([403, "capability_required"]);
    expect((await member.delete(`/workspaces/${other.wsId}/fields/${theirs.body.id}`)).status).toBe(403);
  });
});
