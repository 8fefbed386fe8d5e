import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createUploadTestApp, testDialectsAndStorages, multipartBody, type UploadTestApp } from "@tidings/testing/uploads-kit";

const SECRET_BYTES = Buffer.from("crash log: the secret line\n");

describe.each(testDialectsAndStorages())("signed download links re-checked on every download on %s with %s storage", (dialect, storage) => {
  let t: UploadTestApp;
  beforeAll(async () => {
    t = await createUploadTestApp(dialect, {}, storage);
  });
  afterAll(() => t.close());

  /** A new app, one uploaded log (the end user's link) attached to feedback (the console's link). */
  async function feedbackWithAttachment(slug: string) {
    const acme = await createWorkspaceWithApp(t.app, t.admin.authorization, slug);
    const body = multipartBody([{ name: "appKey", value: acme.appKey }, { name: "file", filename: "crash.log", contentType: "text/plain", data: SECRET_BYTES }]);
    const upload = await t.app.inject({ method: "POST", url: "/api/v1/uploads/objects", payload: body.payload, headers: body.headers });
    expect(upload.statusCode).toBe(200);
    const submit = await t.app.inject({
      method: "POST",
      url: "/api/v1/feedback",
      payload: { appKey: acme.appKey, title: "It crashed", platform: "ios", uploadIds: [upload.json().uploadId] },
    });
    expect(submit.statusCode).toBe(201);
    const submissionId: string = submit.json().submissionId;
    const detail = await acme.console.get(`/workspaces/${acme.wsId}/submissions/${submissionId}`);
    expect(detail.status).toBe(200);
    const setPublic = async (allowPublic: boolean) =>
      expect((await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { allowPublic })).status).toBe(200);
    return { acme, submissionId, userLink: upload.json().url as string, consoleLink: detail.body.attachments[0].url as string, setPublic };
  }

  async function served(url: string) {
    const res = await t.app.inject({ url });
    expect(res.statusCode, url).toBe(200);
    expect(res.rawPayload.equals(SECRET_BYTES)).toBe(true);
    expect(res.headers["cache-control"]).toBe("private, no-cache");
  }
  async function refused(url: string) {
    const res = await t.app.inject({ url });
    expect(res.statusCode, url).toBe(404);
    expect(res.json()).toEqual({ error: "Upload not found", code: "upload_not_found" });
    expect(res.body).not.toContain("secret line");
  }

  it("stops an end user's link while the app is private, and keeps the console's working", async () => {
    const { userLink, consoleLink, setPublic } = await feedbackWithAttachment("dl-private");
    expect(consoleLink).toMatch(/&for=console$/);
    await served(userLink);
    await served(consoleLink);
    await setPublic(false);
    await refused(userLink);
    await served(consoleLink);
    await setPublic(true);
    await served(userLink);
  });

  it("stops both links once the feedback is deleted", async () => {
    const { submissionId, userLink, consoleLink } = await feedbackWithAttachment("dl-deleted");
    await served(userLink);
    await t.app.ctx.db.kysely.deleteFrom("submissions").where("id", "=", submissionId).execute();
    await refused(userLink);
    await refused(consoleLink);
  });

  it("stops both links once the app is deleted", async () => {
    const { acme, userLink, consoleLink } = await feedbackWithAttachment("dl-app-gone");
    await served(consoleLink);
    await t.app.ctx.db.kysely.deleteFrom("apps").where("id", "=", acme.appId).execute();
    await refused(userLink);
    await refused(consoleLink);
  });

  it("does not let a link change its audience", async () => {
    const { userLink, consoleLink, setPublic } = await feedbackWithAttachment("dl-audience");
    await setPublic(false);
    for (const url of [consoleLink.replace("&for=console", ""), `${userLink}&for=console`, `${userLink}&for=admin`, consoleLink.replace("for=console", "for=Console")]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ code: "invalid_download_link" });
    }
  });
});
