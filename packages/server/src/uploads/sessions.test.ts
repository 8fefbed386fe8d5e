import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { UPLOAD_SESSION_TTL_MS } from "./sessions.js";
import { createUploadTestApp, testDialectsAndStorages, JPEG_HEADER, multipartBody, png, type UploadTestApp } from "@tidings/testing/uploads-kit";

const ALICE = "5f0b1c3e-7a51-4f0e-9d2a-1b2c3d4e5f60";
const BOB = "0a9e8d7c-6b5a-4c3d-8e2f-1a2b3c4d5e6f";

describe.each(testDialectsAndStorages())("upload sessions on %s with %s storage", (dialect, storage) => {
  let t: UploadTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createUploadTestApp(dialect, {}, storage);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "sessions-co");
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { maxAttachmentBytes: 2048 });
  });
  afterAll(() => t.close());

  const open = (files: unknown[], token: string | null = ALICE) =>
    t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/sessions",
      payload: { appKey: acme.appKey, files, purpose: "feedback_attachment" },
      headers: token === null ? {} : { "x-user-token": token },
    });
  const put = (uploadUrl: string, sessionToken: string, payload: Buffer, contentType = "image/png") =>
    t.app.inject({ method: "PUT", url: uploadUrl, payload, headers: { authorization: `Bearer ${sessionToken}`, "content-type": contentType } });

  it("answers both documented shapes and accepts the Swift spellings", async () => {
    const res = await open([{ clientFileId: "file-1", filename: "shot.png", contentType: "image/png", sizeBytes: 100 }]);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.sessionToken).toMatch(/^cpt_up_/);
    expect(body.session).toEqual({ sessionId: body.sessionId, sessionToken: body.sessionToken, expiresAt: body.expiresAt, maxFileSizeBytes: 2048, maxFiles: 8 });
    expect(body.files).toEqual(body.uploads);
    expect(body.files[0]).toMatchObject({ clientFileId: "file-1", filename: "shot.png", mimeType: "image/png", maxBytes: 2048, maxSizeBytes: 2048 });
    expect(body.files[0].uploadUrl).toBe(`/api/v1/uploads/${body.files[0].uploadId}`);
  });

  it("requires an uploader token and refuses executables, SVG and oversized declarations", async () => {
    expect((await open([{ filename: "a.png", mimeType: "image/png", size: 10 }], null)).json()).toMatchObject({ code: "uploader_identity_required" });
    expect((await open([{ filename: "a.exe", mimeType: "application/octet-stream", size: 10 }])).json()).toMatchObject({ code: "executable_extension_prohibited" });
    expect((await open([{ filename: "a.svg", mimeType: "image/svg+xml", size: 10 }])).json()).toMatchObject({ code: "unsupported_mime_type" });
    const big = await open([{ filename: "a.png", mimeType: "image/png", size: 2049 }]);
    expect(big.statusCode).toBe(413);
    expect((await open([])).statusCode).toBe(400);
    const rows = await t.app.ctx.db.kysely.selectFrom("uploadSessions").select("id").where("appId", "=", acme.appId).execute();
    expect(rows).toHaveLength(1);
  });

  it("stores a slot's raw bytes once, checks them, and lets the same uploader attach it", async () => {
    const session = (await open([{ filename: "a.png", mimeType: "image/png", size: 100 }, { filename: "b.jpg", mimeType: "image/jpeg" }])).json();
    const [a, b] = session.files;
    expect((await put(a.uploadUrl, "cpt_up_wrong", png(100))).json()).toMatchObject({ code: "session_invalid_or_expired" });
    expect((await t.app.inject({ method: "PUT", url: a.uploadUrl, payload: png(100), headers: { "content-type": "image/png" } })).statusCode).toBe(401);
    const stored = await put(a.uploadUrl, session.sessionToken, png(100));
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({ uploadId: a.uploadId, status: "uploaded", stored: true, size: 100, sizeBytes: 100, contentType: "image/png" });
    expect((await put(a.uploadUrl, session.sessionToken, png(100))).statusCode).toBe(409);
    // A PNG sent to the JPEG slot is refused and the slot stays open.
    const files = await t.storedFiles();
    expect((await put(b.uploadUrl, session.sessionToken, png(100), "image/jpeg")).statusCode).toBe(415);
    expect(await t.storedFiles()).toEqual(files);
    const jpeg = Buffer.concat([JPEG_HEADER, Buffer.alloc(60)]);
    expect((await put(b.uploadUrl, session.sessionToken, jpeg, "image/jpeg")).statusCode).toBe(200);

    const feedback = (token: string, uploadIds: string[]) =>
      t.app.inject({ method: "POST", url: "/api/v1/feedback", payload: { appKey: acme.appKey, title: "With files", platform: "ios", uploadIds }, headers: { "x-user-token": token } });
    expect((await feedback(BOB, [a.uploadId])).json().code).toBe("uploader_mismatch");
    expect((await feedback(ALICE, [a.uploadId, b.uploadId])).statusCode).toBe(201);
  });

  it("accepts a multipart PUT, and refuses one byte over the slot with 413", async () => {
    const session = (await open([{ filename: "log.txt", mimeType: "text/plain" }, { filename: "big.txt", mimeType: "text/plain" }])).json();
    const body = multipartBody([{ name: "file", filename: "log.txt", contentType: "text/plain", data: Buffer.from("hello") }]);
    const res = await t.app.inject({ method: "PUT", url: session.files[0].uploadUrl, payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${session.sessionToken}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ size: 5, mimeType: "text/plain" });
    const exact = await put(session.files[1].uploadUrl, session.sessionToken, Buffer.alloc(2049, 65), "text/plain");
    expect(exact.statusCode).toBe(413);
    expect((await put(session.files[1].uploadUrl, session.sessionToken, Buffer.alloc(0), "text/plain")).statusCode).toBe(400);
    expect((await put(session.files[1].uploadUrl, session.sessionToken, Buffer.alloc(2048, 65), "text/plain")).statusCode).toBe(200);
  });

  it("names session files by whole characters: long, ZWJ, combining and lone-surrogate names", async () => {
    const names = [
      `a${"🦄".repeat(150)}.txt`,
      `${"👩‍💻".repeat(60)}.log`,
      `${"q\u0323\u0301".repeat(100)}.csv`,
      "report\uD800\uDC00\uDC00.txt",
      "\uD800",
      `.${"x".repeat(300)}`,
    ];
    // Sent as JSON text, so the lone surrogates arrive as `\uD800` escapes.
    const payload = JSON.stringify({ appKey: acme.appKey, files: names.map((filename) => ({ filename, mimeType: "text/plain" })) });
    const res = await t.app.inject({ method: "POST", url: "/api/v1/uploads/sessions", payload, headers: { "content-type": "application/json", "x-user-token": ALICE } });
    expect(res.statusCode).toBe(201);
    expect(res.json().files.map((f: { filename: string }) => f.filename)).toEqual([
      `a${"🦄".repeat(97)}.txt`,
      `${"👩‍💻".repeat(39)}.log`,
      `${"q\u0323\u0301".repeat(65)}.csv`,
      "report𐀀.txt",
      "file",
      "x".repeat(200),
    ]);
    const slot = res.json().files[3];
    expect((await put(slot.uploadUrl, res.json().sessionToken, Buffer.from("log"), "text/plain")).statusCode).toBe(200);
    const stored = await t.app.inject({ method: "PUT", url: res.json().files[0].uploadUrl, payload: Buffer.from("x"), headers: { authorization: `Bearer ${res.json().sessionToken}`, "content-type": "text/plain" } });
    const download = await t.app.inject({ url: stored.json().url });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toContain(`filename*=UTF-8''${encodeURIComponent(`a${"🦄".repeat(97)}.txt`)}`);
  });

  it("refuses an expired session token and an id outside the session", async () => {
    const session = (await open([{ filename: "a.png", mimeType: "image/png" }])).json();
    const other = (await open([{ filename: "b.png", mimeType: "image/png" }])).json();
    expect((await put(other.files[0].uploadUrl, session.sessionToken, png(50))).json()).toMatchObject({ code: "upload_not_found" });
    t.clock.advance(UPLOAD_SESSION_TTL_MS + 1);
    expect((await put(session.files[0].uploadUrl, session.sessionToken, png(50))).json()).toMatchObject({ code: "session_invalid_or_expired" });
  });
});
