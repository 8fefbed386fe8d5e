import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepUnattachedUploads, UNATTACHED_UPLOAD_TTL_MS } from "./sweeper.js";
import { createUploadTestApp, testDialectsAndStorages, multipartBody, png, type UploadTestApp } from "@tidings/testing/uploads-kit";

describe.each(testDialectsAndStorages())("unattached upload sweeper on %s with %s storage", (dialect, storage) => {
  let t: UploadTestApp;
  beforeAll(async () => {
    t = await createUploadTestApp(dialect, {}, storage);
  });
  afterAll(() => t.close());

  const upload = async () => {
    const body = multipartBody([{ name: "appKey", value: "app_demo" }, { name: "file", filename: "a.png", contentType: "image/png", data: png(90) }]);
    const res = await t.app.inject({ method: "POST", url: "/api/v1/uploads/images", payload: body.payload, headers: body.headers });
    expect(res.statusCode).toBe(200);
    return res.json() as { uploadId: string; url: string };
  };
  const exists = async (id: string) => (await t.app.ctx.db.kysely.selectFrom("uploads").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;

  it("deletes uploads no submission took within 24 hours, rows and files, and keeps attached ones", async () => {
    const stale = await upload();
    const kept = await upload();
    const submitted = await t.app.inject({
      method: "POST",
      url: "/api/v1/feedback",
      payload: { appKey: "app_demo", title: "Keep my file", platform: "ios", uploadIds: [kept.uploadId] },
    });
    expect(submitted.statusCode).toBe(201);
    t.clock.advance(UNATTACHED_UPLOAD_TTL_MS - 60_000);
    expect(await sweepUnattachedUploads(t.app.ctx)).toBe(0);
    const young = await upload();
    t.clock.advance(120_000);
    const files = (await t.storedFiles()).length;
    expect(await sweepUnattachedUploads(t.app.ctx)).toBe(1);
    expect(await exists(stale.uploadId)).toBe(false);
    expect(await exists(kept.uploadId)).toBe(true);
    expect(await exists(young.uploadId)).toBe(true);
    expect(await t.storedFiles()).toHaveLength(files - 1);
    expect((await t.storedFiles()).some((f) => f.includes(stale.uploadId))).toBe(false);
    // A swept upload can no longer be attached.
    const late = await t.app.inject({ method: "POST", url: "/api/v1/feedback", payload: { appKey: "app_demo", title: "Late", platform: "ios", uploadIds: [stale.uploadId] } });
    expect(late.json().code).toBe("invalid_attachment");
  });
});
