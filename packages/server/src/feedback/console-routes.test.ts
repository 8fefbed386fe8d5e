import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp, expectOffsetBounds } from "@tidings/testing/console-client";
import { testDialects } from "@tidings/testing/test-database";
import { createUploadTestApp, multipartBody, png, type UploadTestApp } from "@tidings/testing/uploads-kit";

describe.each(testDialects())("console feedback inbox on %s", (dialect) => {
  let t: UploadTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  const ids: Record<string, string> = {};
  let memberId = "";
  beforeAll(async () => {
    t = await createUploadTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "inbox-co");
    const member = await acme.console.post(`/workspaces/${acme.wsId}/members`, { email: "triager@acme.example", role: "member" });
    expect(member.status).toBe(201);
    memberId = member.body.userId ?? member.body.member?.userId;
    const body = multipartBody([{ name: "appKey", value: acme.appKey }, { name: "file", filename: "crash.png", contentType: "image/png", data: png(120) }]);
    const upload = (await t.app.inject({ method: "POST", url: "/api/v1/uploads/images", payload: body.payload, headers: body.headers })).json();
    const submit = async (name: string, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method: "POST", url: "/api/v1/feedback", payload: { appKey: acme.appKey, platform: "ios", ...payload } });
      expect(res.statusCode).toBe(201);
      ids[name] = res.json().submissionId;
      t.clock.advance(60_000);
    };
    await submit("crash", { title: "App crashes on SAVE", description: "100% of the time", uploadIds: [upload.uploadId], metadata: { screen: "Editor", apiToken: "x" } });
    await submit("idea", { title: "Dark mode please", platform: "android", reporterEmail: "fan@example.com" });
    await submit("typo", { title: "Typo in settings", description: "teh" });
  });
  afterAll(() => t.close());

  const list = async (query = "") => {
    const res = await acme.console.get(`/workspaces/${acme.wsId}/submissions${query}`);
    expect(res.status).toBe(200);
    return res.body as { submissions: { submissionId: string; [k: string]: unknown }[]; total: number };
  };
  const titles = async (query = "") => (await list(query)).submissions.map((s) => s.submissionId);

  it("lists newest first with total and paging", async () => {
    const all = await list();
    expect(all.total).toBe(3);
    expect(all.submissions.map((s) => s.submissionId)).toEqual([ids.typo, ids.idea, ids.crash]);
    expect(all.submissions[2]).toMatchObject({ appId: acme.appId, appKey: acme.appKey, triageStatus: "open", priority: null, attachmentCount: 1, status: "received" });
    const page = await list("?limit=1&offset=1");
    expect(page.total).toBe(3);
    expect(page.submissions.map((s) => s.submissionId)).toEqual([ids.idea]);
  });

  it("refuses offsets that are not finite or past 1 000 000 with 400, and pages up to it", async () => {
    await expectOffsetBounds(acme.console, `/workspaces/${acme.wsId}/submissions`, "submissions");
  });

  it("refuses a date range on a leap second (a JavaScript date cannot hold it) with 400", async () => {
    for (const query of ["from=2016-12-31T23:59:60Z", "to=2016-12-31T23:59:60.5Z"]) {
      const res = await acme.console.get(`/workspaces/${acme.wsId}/submissions?${query}`);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: "validation_failed" });
    }
  });

  it("filters by platform, app, text (case-insensitive, literal) and date range", async () => {
    expect(await titles("?platform=android")).toEqual([ids.idea]);
    expect(await titles(`?appId=${acme.appId}&q=save`)).toEqual([ids.crash]);
    expect(await titles("?q=100%25")).toEqual([ids.crash]);
    expect(await titles("?q=%25")).toEqual([ids.crash]);
    expect(await titles("?q=fan@example")).toEqual([ids.idea]);
    const crashAt = (await list()).submissions.find((s) => s.submissionId === ids.crash)!.createdAt as string;
    const ideaAt = (await list()).submissions.find((s) => s.submissionId === ids.idea)!.createdAt as string;
    expect(await titles(`?from=${encodeURIComponent(ideaAt)}`)).toEqual([ids.typo, ids.idea]);
    expect(await titles(`?to=${encodeURIComponent(crashAt)}`)).toEqual([ids.crash]);
    expect((await acme.console.get(`/workspaces/${acme.wsId}/submissions?triageStatus=bogus`)).status).toBe(400);
  });

  it("shows one submission with metadata flags and signed attachment links", async () => {
    const res = await acme.console.get(`/workspaces/${acme.wsId}/submissions/${ids.crash}`);
    expect(res.status).toBe(200);
    expect(res.body.submission.title).toBe("App crashes on SAVE");
    expect(res.body.metadata).toEqual([
      { key: "apiToken", value: "[redacted]", redacted: true, truncated: false },
      { key: "screen", value: "Editor", redacted: false, truncated: false },
    ]);
    expect(res.body.attachments).toHaveLength(1);
    const [attachment] = res.body.attachments;
    expect(attachment).toMatchObject({ kind: "image", filename: "crash.png", mimeType: "image/png", sizeBytes: 120 });
    const download = await t.app.inject({ url: attachment.url });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toContain("attachment");
    expect((await acme.console.get(`/workspaces/${acme.wsId}/submissions/sub_00000000000000000000000000`)).body.code).toBe("submission_not_found");
  });

  it("sets triage status, priority, assignee and note", async () => {
    const base = `/workspaces/${acme.wsId}/submissions/${ids.typo}`;
    const assigned = await acme.console.put(`${base}/assign`, { assignedTo: memberId });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ assignedTo: memberId, triageStatus: "in_progress" });
    expect(assigned.body.firstTriagedAt).not.toBeNull();
    expect((await acme.console.put(`${base}/assign`, { assignedTo: "usr_00000000000000000000000000" })).status).toBe(400);
    expect((await acme.console.put(`${base}/priority`, { priority: "!!" })).body.priority).toBe("!!");
    expect((await acme.console.put(`${base}/priority`, { priority: "!!!!" })).status).toBe(400);
    expect((await acme.console.put(`${base}/note`, { internalNote: "Reproduced on 1.2" })).body.internalNote).toBe("Reproduced on 1.2");
    const resolved = await acme.console.patch(`${base}/triage`, { triageStatus: "resolved" });
    expect(resolved.body).toMatchObject({ triageStatus: "resolved" });
    expect(resolved.body.resolvedAt).not.toBeNull();
    expect(await titles("?triageStatus=resolved")).toEqual([ids.typo]);
    expect(await titles(`?assignedTo=${memberId}`)).toEqual([ids.typo]);
    expect(await titles("?priority=!!")).toEqual([ids.typo]);
    expect((await acme.console.put(`${base}/priority`, { priority: null })).body.priority).toBeNull();
  });

  it("bulk-triages up to 50 submissions, skipping ids of other workspaces", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "inbox-other");
    const foreign = (
      await t.app.inject({ method: "POST", url: "/api/v1/feedback", payload: { appKey: other.appKey, title: "Elsewhere", platform: "ios" } })
    ).json().submissionId;
    const res = await acme.console.post(`/workspaces/${acme.wsId}/submissions/bulk-triage`, {
      submissionIds: [ids.crash, ids.idea, foreign],
      triageStatus: "archived",
      assignedTo: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updatedCount: 2, updatedIds: [ids.crash, ids.idea] });
    expect(await titles("?triage_status=archived")).toEqual([ids.idea, ids.crash]);
    expect((await other.console.get(`/workspaces/${other.wsId}/submissions/${foreign}`)).body.submission.triageStatus).toBe("open");
    expect((await acme.console.post(`/workspaces/${acme.wsId}/submissions/bulk-triage`, { submissionIds: [] })).status).toBe(400);
    const tooMany = Array.from({ length: 51 }, () => ids.crash);
    expect((await acme.console.post(`/workspaces/${acme.wsId}/submissions/bulk-triage`, { submissionIds: tooMany, triageStatus: "open" })).status).toBe(400);
  });

  it("hides a workspace's inbox from other workspaces", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "inbox-snoop");
    const res = await other.console.get(`/workspaces/${other.wsId}/submissions/${ids.crash}`);
    expect(res.status).toBe(404);
  });
});
