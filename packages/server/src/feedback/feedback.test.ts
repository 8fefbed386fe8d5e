import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { testDialects } from "@tidings/testing/test-database";
import { createUploadTestApp, multipartBody, png, type UploadTestApp } from "@tidings/testing/uploads-kit";

const ALICE = "5f0b1c3e-7a51-4f0e-9d2a-1b2c3d4e5f60";
const BOB = "0a9e8d7c-6b5a-4c3d-8e2f-1a2b3c4d5e6f";

describe.each(testDialects())("POST /api/v1/feedback on %s", (dialect) => {
  let t: UploadTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let slugs = 0;
  beforeAll(async () => {
    t = await createUploadTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "feedback-co");
  });
  afterAll(() => t.close());

  const send = (payload: Record<string, unknown>, headers: Record<string, string> = {}, remoteAddress = "203.0.113.5") =>
    t.app.inject({ method: "POST", url: "/api/v1/feedback", payload, headers, remoteAddress });
  const draft = (extra: Record<string, unknown> = {}, appKey = acme.appKey) => ({ appKey, title: " Crash on save ", description: " It crashes. ", platform: "ios", ...extra });
  const uploadImage = async (appKey: string, token?: string) => {
    const body = multipartBody([{ name: "appKey", value: appKey }, { name: "file", filename: "s.png", contentType: "image/png", data: png(80) }]);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/images",
      payload: body.payload,
      headers: { ...body.headers, ...(token === undefined ? {} : { "x-user-token": token }) },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { uploadId: string; key: string; url: string; kind: string };
  };
  const submissionsOf = (appId: string) => t.app.ctx.db.kysely.selectFrom("submissions").selectAll().where("appId", "=", appId).execute();
  const usage = async (wsId: string) => (await acme.console.get(`/workspaces/${wsId}/usage`)).body.submissions as number;
  async function freshApp(settings: Record<string, unknown> = {}, billing: Record<string, unknown> = {}) {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `feedback-x-${++slugs}`);
    if (Object.keys(settings).length > 0) expect((await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, settings)).status).toBe(200);
    if (Object.keys(billing).length > 0) expect((await ws.console.put(`/workspaces/${ws.wsId}`, billing)).status).toBe(200);
    return ws;
  }

  it("stores a submission and answers 201 {submissionId, forwardedToGithub:false}", async () => {
    const res = await send(draft({ reporterEmail: "a@example.com", appVersion: "1.2.3", buildNumber: "45" }), { "x-user-token": ALICE });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ submissionId: expect.stringMatching(/^sub_[0-9a-z]{26}$/), forwardedToGithub: false });
    const [row] = (await submissionsOf(acme.appId)).filter((r) => r.id === body.submissionId);
    expect(row).toMatchObject({ title: "Crash on save", description: "It crashes.", platform: "ios", appVersion: "1.2.3", triageStatus: "open" });
    expect(row?.endUserId).not.toBeNull();
  });

  it("accepts details for description and the X-App-Key header for appKey", async () => {
    const res = await send({ title: "Hi", details: "via details", platform: "android" }, { "x-app-key": acme.appKey });
    expect(res.statusCode).toBe(201);
    const rows = await submissionsOf(acme.appId);
    expect(rows.find((r) => r.id === res.json().submissionId)?.description).toBe("via details");
  });

  it("sanitises metadata instead of rejecting it", async () => {
    const res = await send(
      draft({ metadata: { sdk: "rn", password: "hunter2", "bad key": 1, long: "x".repeat(600), deep: { a: { b: { c: 1 } } } } }),
    );
    expect(res.statusCode).toBe(201);
    const row = (await submissionsOf(acme.appId)).find((r) => r.id === res.json().submissionId);
    expect(JSON.parse(row!.metadata)).toEqual({
      deep: { a: { b: { c: null } } },
      long: "x".repeat(512) + "…[truncated]",
      password: "[redacted]",
      sdk: "rn",
    });
    const notObject = await send(draft({ metadata: "just a string" }));
    expect(notObject.statusCode).toBe(201);
  });

  it("checks the app, then the anonymous flag, then the body", async () => {
    expect((await send({ appKey: "app_missing", title: "" })).json()).toMatchObject({ code: "app_not_found" });
    const closed = await freshApp({ allowAnonymousFeedback: false });
    const anonymous = await send({ appKey: closed.appKey, title: 42 }, { "x-user-token": ALICE });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe("authentication_required");
    const invalid = await send({ appKey: acme.appKey, title: 42, platform: "windows" });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json().details.fieldErrors).sort()).toEqual(["platform", "title"]);
    expect((await send({ appKey: acme.appKey, title: "   " })).json()).toMatchObject({ code: "validation_failed", details: { fieldErrors: { title: ["Required"] } } });
    expect((await send({ title: "No key" })).json()).toMatchObject({ code: "validation_failed", details: { fieldErrors: { appKey: ["Required"] } } });
    expect(await submissionsOf(closed.appId)).toEqual([]);
  });

  it("refuses a platform outside allowedPlatforms with 403, writing nothing and using no quota", async () => {
    const ws = await freshApp({ allowedPlatforms: ["ios"] });
    const refused = await send(draft({ platform: "android" }, ws.appKey));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("platform_not_allowed");
    expect((await send(draft({}, ws.appKey))).statusCode).toBe(201);
    // An absent platform is reported as universal, which this app does not allow.
    expect((await send({ appKey: ws.appKey, title: "No platform" })).statusCode).toBe(403);
    expect(await submissionsOf(ws.appId)).toHaveLength(1);
    expect(await usage(ws.wsId)).toBe(1);
  });

  it("attaches uploads by uploadIds and by legacy descriptors, once", async () => {
    const a = await uploadImage(acme.appKey, ALICE);
    const b = await uploadImage(acme.appKey, ALICE);
    const res = await send(draft({ uploadIds: [a.uploadId], attachments: [{ kind: b.kind, key: b.key, url: b.url }] }), { "x-user-token": ALICE });
    expect(res.statusCode).toBe(201);
    const attached = await t.app.ctx.db.kysely.selectFrom("uploads").select(["id", "submissionId"]).where("id", "in", [a.uploadId, b.uploadId]).execute();
    expect(attached.map((r) => r.submissionId)).toEqual([res.json().submissionId, res.json().submissionId]);

    const reused = await send(draft({ uploadIds: [a.uploadId] }), { "x-user-token": ALICE });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe("already_finalized");
  });

  it("refuses foreign, unknown, other uploaders' and too many uploads with 400, writing nothing", async () => {
    const before = (await submissionsOf(acme.appId)).length;
    const other = await freshApp();
    const foreign = await uploadImage(other.appKey);
    expect((await send(draft({ uploadIds: [foreign.uploadId] }))).json()).toMatchObject({ code: "invalid_attachment" });
    expect((await send(draft({ uploadIds: ["upl_00000000000000000000000000000000"] }))).json()).toMatchObject({ code: "invalid_attachment" });
    expect((await send(draft({ attachments: [{ kind: "image", url: "https://evil.example/x.png" }] }))).json()).toMatchObject({ code: "invalid_attachment" });
    const alices = await uploadImage(acme.appKey, ALICE);
    const mismatch = await send(draft({ uploadIds: [alices.uploadId] }), { "x-user-token": BOB });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ error: "Upload session was created by a different uploader", code: "uploader_mismatch" });
    expect((await send(draft({ uploadIds: [alices.uploadId] }))).json().code).toBe("uploader_mismatch");
    const nine = Array.from({ length: 9 }, (_, i) => `upl_${String(i).padStart(32, "0")}`);
    expect((await send(draft({ uploadIds: nine }))).statusCode).toBe(400);
    expect((await submissionsOf(acme.appId)).length).toBe(before);
    // The refused upload is still free for its uploader.
    expect((await send(draft({ uploadIds: [alices.uploadId] }), { "x-user-token": ALICE })).statusCode).toBe(201);
  });

  it("refuses without a verification token when the app requires one, before quota, writing nothing", async () => {
    const ws = await freshApp({ verification: { provider: "turnstile", siteKey: "site", secretKey: "secret" } });
    const upload = await uploadImage(ws.appKey);
    const res = await send(draft({ uploadIds: [upload.uploadId] }, ws.appKey));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: "Human verification (Turnstile) is required", code: "verification_required" });
    expect(await submissionsOf(ws.appId)).toEqual([]);
    expect(await usage(ws.wsId)).toBe(0);
    const row = await t.app.ctx.db.kysely.selectFrom("uploads").select("submissionId").where("id", "=", upload.uploadId).executeTakeFirstOrThrow();
    expect(row.submissionId).toBeNull();
  });

  it("answers 402 subscription_inactive and 402 tier_limit_submissions", async () => {
    const inactive = await freshApp({}, { subscriptionStatus: "canceled" });
    expect((await send(draft({}, inactive.appKey))).json()).toEqual({ error: "This workspace's subscription is inactive", code: "subscription_inactive" });
    const full = await freshApp({}, { monthlySubmissionQuota: 1 });
    expect((await send(draft({}, full.appKey))).statusCode).toBe(201);
    const over = await send(draft({}, full.appKey));
    expect(over.statusCode).toBe(402);
    expect(over.json().code).toBe("tier_limit_submissions");
    expect(await submissionsOf(full.appId)).toHaveLength(1);
  });

  it("lets exactly one of 8 parallel submissions take the last quota slot", async () => {
    const ws = await freshApp({}, { monthlySubmissionQuota: 3 });
    expect((await send(draft({}, ws.appKey))).statusCode).toBe(201);
    expect((await send(draft({}, ws.appKey))).statusCode).toBe(201);
    const uploads = await Promise.all(Array.from({ length: 8 }, () => uploadImage(ws.appKey)));
    const results = await Promise.all(uploads.map((u, i) => send(draft({ uploadIds: [u.uploadId] }, ws.appKey), {}, `198.51.100.${i + 1}`)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 402, 402, 402, 402, 402, 402, 402]);
    for (const r of results.filter((r) => r.statusCode === 402)) expect(r.json().code).toBe("tier_limit_submissions");
    expect(await submissionsOf(ws.appId)).toHaveLength(3);
    expect(await usage(ws.wsId)).toBe(3);
    const attached = await t.app.ctx.db.kysely
      .selectFrom("uploads")
      .select("id")
      .where("id", "in", uploads.map((u) => u.uploadId))
      .where("submissionId", "is not", null)
      .execute();
    expect(attached).toHaveLength(1);
  });

  it("answers 429 past the feedback rate limit", async () => {
    const limited = await createUploadTestApp(dialect, { rateLimits: { ...t.app.ctx.config.rateLimits, feedback: { limit: 1, windowSeconds: 60 } } });
    try {
      const post = () => limited.app.inject({ method: "POST", url: "/api/v1/feedback", payload: { appKey: "app_demo", title: "x", platform: "ios" } });
      expect((await post()).statusCode).toBe(201);
      const refused = await post();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe("Too many submissions. Please try again shortly.");
    } finally {
      await limited.close();
    }
  });
});
