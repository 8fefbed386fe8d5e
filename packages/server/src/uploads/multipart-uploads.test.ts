import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { DOWNLOAD_LINK_TTL_MS } from "./signed-links.js";
import { createUploadTestApp, testDialectsAndStorages, JPEG_HEADER, multipartBody, png, PNG_HEADER, type Part, type UploadTestApp } from "@tidings/testing/uploads-kit";

describe.each(testDialectsAndStorages())("multipart uploads on %s with %s storage", (dialect, storage) => {
  let t: UploadTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createUploadTestApp(dialect, {}, storage);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "uploads-co");
    expect((await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { maxAttachmentBytes: 1024 })).status).toBe(200);
  });
  afterAll(() => t.close());

  const upload = (path: string, parts: Part[], headers: Record<string, string> = {}) => {
    const body = multipartBody(parts);
    return t.app.inject({ method: "POST", url: `/api/v1/uploads/${path}`, payload: body.payload, headers: { ...body.headers, ...headers } });
  };
  const image = (data: Buffer, filename = "shot.png", contentType = "image/png") =>
    upload("images", [{ name: "appKey", value: acme.appKey }, { name: "file", filename, contentType, data }]);
  const rowCount = async () =>
    Number((await t.app.ctx.db.kysely.selectFrom("uploads").select((eb) => eb.fn.countAll().as("n")).where("appId", "=", acme.appId).executeTakeFirstOrThrow()).n);

  /** Asserts a refusal wrote no row and left no file. */
  async function refusedCleanly(res: { statusCode: number; json(): unknown }, status: number, code: string) {
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expect(await t.storedFiles()).toEqual(files);
    expect(await rowCount()).toBe(rows);
  }
  let files: string[] = [];
  let rows = 0;
  const snapshot = async () => {
    files = await t.storedFiles();
    rows = await rowCount();
  };

  it("stores a PNG and answers the superset descriptor with a signed link", async () => {
    const data = png(200);
    const res = await image(data);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ kind: "image", filename: "shot.png", mimeType: "image/png", size: 200, status: "uploaded", stored: true });
    expect(body.uploadId).toMatch(/^upl_[0-9a-f]{32}$/);
    expect(body.id).toBe(body.uploadId);
    expect(body.key).toContain(body.uploadId);
    expect(body.sha256).toBe((await import("node:crypto")).createHash("sha256").update(data).digest("hex"));
    expect(body.url).toMatch(/^\/api\/v1\/files\/upl_[0-9a-f]{32}\?expires=\d+&sig=[0-9a-f]{64}$/);

    const download = await t.app.inject({ url: body.url });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(data)).toBe(true);
    expect(download.headers["content-disposition"]).toBe(`attachment; filename="shot.png"; filename*=UTF-8''shot.png`);
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.headers["content-security-policy"]).toContain("sandbox");
    expect(download.headers["content-type"]).toBe("image/png");
  });

  it("accepts a file of exactly maxAttachmentBytes and refuses one byte more with 413, leaving nothing", async () => {
    const exact = await image(png(1024));
    expect(exact.statusCode).toBe(200);
    expect(exact.json().size).toBe(1024);
    await snapshot();
    await refusedCleanly(await image(png(1025)), 413, "file_too_large");
    const obj = await upload("objects", [{ name: "appKey", value: acme.appKey }, { name: "file", filename: "big.log", contentType: "text/plain", data: Buffer.alloc(1025, 65) }]);
    await refusedCleanly(obj, 413, "file_too_large");
    // Far over the limit: refused while streaming, not after.
    await refusedCleanly(await image(png(200_000)), 413, "file_too_large");
  });

  it("refuses image bytes that do not match the claimed type, SVG and non-images with 415", async () => {
    await snapshot();
    await refusedCleanly(await image(png(100), "shot.jpg", "image/jpeg"), 415, "unsupported_image_type");
    await refusedCleanly(await image(png(100), "shot.jpg", "application/octet-stream"), 415, "unsupported_image_type");
    await refusedCleanly(await image(Buffer.concat([JPEG_HEADER, Buffer.alloc(50)]), "shot.png", "image/png"), 415, "unsupported_image_type");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const svgRes = await image(svg, "logo.svg", "image/svg+xml");
    await refusedCleanly(svgRes, 415, "unsupported_image_type");
    expect(svgRes.json().error).toMatch(/SVG/);
    await refusedCleanly(await image(svg, "logo.png", "image/png"), 415, "unsupported_image_type");
    await refusedCleanly(await image(Buffer.from("just text here, no image"), "notes.png", "image/png"), 415, "unsupported_image_type");
    await refusedCleanly(await image(png(100), "doc.pdf", "application/pdf"), 415, "unsupported_image_type");
  });

  it("accepts the other image formats by their magic bytes", async () => {
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(30)]);
    const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 "), Buffer.alloc(30)]);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic"), Buffer.alloc(30)]);
    const jpeg = Buffer.concat([JPEG_HEADER, Buffer.alloc(30)]);
    for (const [data, name, type] of [
      [gif, "a.gif", "image/gif"],
      [webp, "a.webp", "image/webp"],
      [heic, "a.heic", "image/heic"],
      [jpeg, "a.jpg", "image/jpeg"],
      [jpeg, "a.jpeg", "application/octet-stream"],
    ] as const) {
      const res = await image(data, name, type);
      expect(res.statusCode, name).toBe(200);
      expect(res.json().mimeType).toBe(type === "application/octet-stream" ? "image/jpeg" : type);
    }
  });

  it("refuses a zero-byte file, a missing file part, two file parts and a truncated body with 400 invalid_upload", async () => {
    await snapshot();
    await refusedCleanly(await image(Buffer.alloc(0)), 400, "invalid_upload");
    await refusedCleanly(await upload("images", [{ name: "appKey", value: acme.appKey }]), 400, "invalid_upload");
    const two = await upload("images", [
      { name: "appKey", value: acme.appKey },
      { name: "file", filename: "a.png", contentType: "image/png", data: png(50) },
      { name: "file", filename: "b.png", contentType: "image/png", data: png(50) },
    ]);
    await refusedCleanly(two, 400, "invalid_upload");
    const wrongName = await upload("images", [{ name: "appKey", value: acme.appKey }, { name: "image", filename: "a.png", contentType: "image/png", data: png(50) }]);
    await refusedCleanly(wrongName, 400, "invalid_upload");

    const whole = multipartBody([{ name: "appKey", value: acme.appKey }, { name: "file", filename: "a.png", contentType: "image/png", data: png(500) }]);
    const truncated = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/images",
      payload: whole.payload.subarray(0, whole.payload.length - 300),
      headers: whole.headers,
    });
    await refusedCleanly(truncated, 400, "invalid_upload");
  });

  it("answers JSON and other non-multipart bodies with 415, a missing app key with 400", async () => {
    const json = await t.app.inject({ method: "POST", url: "/api/v1/uploads/images", payload: { appKey: acme.appKey } });
    expect(json.statusCode).toBe(415);
    const noKey = await upload("images", [{ name: "file", filename: "a.png", contentType: "image/png", data: png(50) }]);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toMatchObject({ code: "validation_failed", details: { fieldErrors: { appKey: ["Required"] } } });
  });

  it("keeps only the last segment of a filename that carries a path", async () => {
    for (const [sent, kept] of [
      ["../../etc/passwd.png", "passwd.png"],
      ["C:\\Users\\me\\Desktop\\shot.png", "shot.png"],
      ["/var/tmp/..png", "png"],
    ]) {
      const res = await image(png(40), sent);
      expect(res.statusCode, sent).toBe(200);
      expect(res.json().filename).toBe(kept);
    }
    expect((await t.storedFiles()).every((f) => /^[0-9a-f]{2}\/upl_[0-9a-f]{32}-[0-9a-f]{8}$/.test(f))).toBe(true);
  });

  it("shortens a long name by whole characters, keeps its extension, and serves it back intact", async () => {
    const sent = `a${"🦄".repeat(150)}.txt`;
    const kept = `a${"🦄".repeat(97)}.txt`;
    const res = await upload("objects", [{ name: "appKey", value: acme.appKey }, { name: "file", filename: sent, contentType: "text/plain", data: Buffer.from("hi") }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().filename).toBe(kept);
    expect(res.body).not.toContain("\\ud83e\"");
    const download = await t.app.inject({ url: res.json().url });
    expect(download.statusCode).toBe(200);
    const disposition = download.headers["content-disposition"] as string;
    expect(disposition).toBe(`attachment; filename="a${"_".repeat(97)}.txt"; filename*=UTF-8''${encodeURIComponent(kept)}`);
    expect(decodeURIComponent(disposition.split("''")[1]!)).toBe(kept);

    const family = `${"👨‍👩‍👧‍👦".repeat(30)}.png`;
    const image = await upload("images", [{ name: "appKey", value: acme.appKey }, { name: "file", filename: family, contentType: "image/png", data: png(40) }]);
    expect(image.json().filename).toBe(`${"👨‍👩‍👧‍👦".repeat(17)}.png`);
  });

  it("stores logs and archives as objects, and answers kind r2 on the legacy alias", async () => {
    const log = await upload("objects", [{ name: "appKey", value: acme.appKey }, { name: "file", filename: "app.log", contentType: "text/plain", data: Buffer.from("line 1\nline 2\n") }]);
    expect(log.statusCode).toBe(200);
    expect(log.json()).toMatchObject({ kind: "object", filename: "app.log", mimeType: "text/plain", size: 14 });
    const r2 = await upload("r2", [{ name: "appKey", value: acme.appKey }, { name: "file", filename: "state.json", contentType: "application/json", data: Buffer.from("{}") }]);
    expect(r2.statusCode).toBe(200);
    expect(r2.json()).toMatchObject({ kind: "r2", mimeType: "application/json" });
    const html = await upload("objects", [{ name: "appKey", value: acme.appKey }, { name: "file", filename: "page.html", contentType: "text/html", data: Buffer.from("<script>x</script>") }]);
    expect(html.json().mimeType).toBe("application/octet-stream");
  });

  it("refuses executables by extension and by content with 400 executable_extension_prohibited", async () => {
    await snapshot();
    for (const filename of ["setup.exe", "run.sh", "app.apk", "evil.log.bat", "Tool.EXE"]) {
      const res = await upload("objects", [{ name: "appKey", value: acme.appKey }, { name: "file", filename, data: Buffer.from("harmless?") }]);
      await refusedCleanly(res, 400, "executable_extension_prohibited");
    }
    const elf = await upload("objects", [{ name: "appKey", value: acme.appKey }, { name: "file", filename: "core.dat", data: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(40)]) }]);
    await refusedCleanly(elf, 400, "executable_extension_prohibited");
  });

  it("takes the app key from X-App-Key, or from a field after the file", async () => {
    const viaHeader = await upload("images", [{ name: "file", filename: "h.png", contentType: "image/png", data: png(60) }], { "x-app-key": acme.appKey });
    expect(viaHeader.statusCode).toBe(200);
    const after = await upload("images", [{ name: "file", filename: "late.png", contentType: "image/png", data: png(60) }, { name: "appKey", value: acme.appKey }]);
    expect(after.statusCode).toBe(200);
    await snapshot();
    // Over the app's limit, only known once the key arrives after the file: still refused, nothing kept.
    const lateBig = await upload("images", [{ name: "file", filename: "late.png", contentType: "image/png", data: png(1025) }, { name: "appKey", value: acme.appKey }]);
    await refusedCleanly(lateBig, 413, "file_too_large");
  });

  it("answers unknown and private apps 404 alike, and anonymous uploaders 401 when anonymous feedback is off", async () => {
    expect((await upload("images", [{ name: "appKey", value: "app_nope" }, { name: "file", filename: "a.png", data: png(40) }])).statusCode).toBe(404);
    const closed = await createWorkspaceWithApp(t.app, t.admin.authorization, "uploads-closed");
    await closed.console.put(`/workspaces/${closed.wsId}/apps/${closed.appId}/settings`, { allowAnonymousFeedback: false });
    const parts: Part[] = [{ name: "appKey", value: closed.appKey }, { name: "file", filename: "a.png", contentType: "image/png", data: png(40) }];
    const anonymous = await upload("images", parts, { "x-user-token": "9b2f1c1e-1111-4c4c-8888-000000000001" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe("authentication_required");
    const privateApp = await createWorkspaceWithApp(t.app, t.admin.authorization, "uploads-private");
    await privateApp.console.put(`/workspaces/${privateApp.wsId}/apps/${privateApp.appId}/settings`, { allowPublic: false });
    const res = await upload("images", [{ name: "appKey", value: privateApp.appKey }, { name: "file", filename: "a.png", data: png(40) }]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "App not found", code: "app_not_found" });
  });

  it("refuses forged and expired download links with 403", async () => {
    const { url } = (await image(png(80))).json();
    const forged = url.replace(/sig=([0-9a-f])/, (_m: string, c: string) => `sig=${c === "0" ? "1" : "0"}`);
    expect((await t.app.inject({ url: forged })).statusCode).toBe(403);
    const longer = url.replace(/expires=(\d+)/, (_m: string, e: string) => `expires=${Number(e) + 3600}`);
    expect((await t.app.inject({ url: longer })).json()).toMatchObject({ code: "invalid_download_link" });
    expect((await t.app.inject({ url: url.split("?")[0] })).statusCode).toBe(403);
    t.clock.advance(DOWNLOAD_LINK_TTL_MS + 1000);
    const expired = await t.app.inject({ url });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({ error: "This download link is invalid or has expired", code: "invalid_download_link" });
  });

  it("signs links with a secret kept in the database, so they survive a restart", async () => {
    const { url } = (await image(png(80))).json();
    const { buildApp } = await import("../app.js");
    const again = await buildApp(t.app.ctx.config, { db: t.database.db, clock: t.clock, storage: t.app.ctx.storage, logger: false });
    try {
      const res = await again.inject({ url });
      expect(res.statusCode).toBe(200);
    } finally {
      await again.close();
    }
  });

  it("does not leak the PNG header helper into stored names", () => {
    expect(PNG_HEADER.length).toBe(16);
  });
});

describe("upload rate limit", () => {
  it("answers 429 past the upload bucket", async () => {
    const t = await createUploadTestApp("sqlite", { rateLimits: { ...(await import("@tidings/testing/uploads-kit")).RELAXED_LIMITS, upload: { limit: 2, windowSeconds: 60 } } });
    try {
      const send = () => {
        const body = multipartBody([{ name: "appKey", value: "app_demo" }, { name: "file", filename: "a.png", contentType: "image/png", data: png(40) }]);
        return t.app.inject({ method: "POST", url: "/api/v1/uploads/images", payload: body.payload, headers: body.headers });
      };
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(200);
      const third = await send();
      expect(third.statusCode).toBe(429);
      expect(third.headers["retry-after"]).toBeDefined();
    } finally {
      await t.close();
    }
  });
});
