import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import multipart from "@fastify/multipart";
import {
  ErrorBodySchema,
  MAX_ATTACHMENT_BYTES_LIMIT,
  MAX_ATTACHMENTS,
  UploadDescriptorSchema,
  UploadSessionBodySchema,
  UploadSessionResultSchema,
} from "@tidings/protocol";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import type { AppRow } from "../apps/apps.js";
import { requirePublicApp } from "../apps/public-app.js";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { hasIdempotencyKey, recordIdempotentWrite, reserveAfterBody, sendReplay } from "../http/idempotency.js";
import type { App } from "../http/types.js";
import { newId, randomToken } from "../ids.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { identifyCaller, requireIdentifiedWrite } from "../users/identity.js";
import {
  checkImageBytes,
  claimedImageType,
  objectMimeType,
  refuseExecutableBytes,
  refuseExecutableName,
  sanitizeFilename,
  type ImageType,
} from "./file-types.js";
import { attachmentDisposition } from "./content-disposition.js";
import { multipartError, readMultipart } from "./multipart.js";
import { receiveFile } from "./receive.js";
import { downloadableUpload } from "./downloadable.js";
import { verifyDownloadLink } from "./signed-links.js";
import { newStorageKey, newUploadId, toDescriptor, UPLOAD_ID_PATTERN, uploaderHash, type UploadKind, type UploadRow } from "./uploads.js";
import { BYTES, IDENTITY_HEADERS } from "../http/openapi.js";

/** How long an upload session's token accepts files. */
export const UPLOAD_SESSION_TTL_MS = 60 * 60_000;
/** The documented form of a multipart upload (read part by part, never validated as a whole). */
const MultipartFile = Type.Object({
  appKey: Type.Optional(Type.String({ description: "The app key (or `X-App-Key`); before the file part" })),
  file: { ...BYTES, description: "The file, with its name and Content-Type" },
});

/** Room for multipart framing when a session PUT's Content-Length is checked against the slot. */
const MULTIPART_OVERHEAD = 64 * 1024;

const tags = ["public: uploads"];
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  413: ErrorBodySchema,
  415: ErrorBodySchema,
  429: ErrorBodySchema,
};

/** MIME types never stored, whatever the file name says. */
const REFUSED_TYPES = new Set([
  "image/svg+xml",
  "text/html",
  "application/xhtml+xml",
  "text/javascript",
  "application/javascript",
  "application/x-msdownload",
  "application/vnd.microsoft.portable-executable",
  "application/x-executable",
  "application/x-sh",
  "application/x-mach-binary",
  "application/vnd.android.package-archive",
  "application/java-archive",
]);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** A multipart text field as fingerprint text (values are strings; anything else is serialised). */
function canonicalPair(name: string, value: unknown): string {
  return JSON.stringify([name, typeof value === "string" ? value : JSON.stringify(value ?? null)]);
}

/** Upload routes read their bodies as streams and reserve an Idempotency-Key themselves. */
const streamed = { idempotency: "stream" as const };

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The app and end user an upload is made for. */
interface Uploader {
  app: AppRow;
  tokenHash: string | null;
}

async function resolveUploader(ctx: Context, request: FastifyRequest, appKey: string): Promise<Uploader> {
  const { app } = await requirePublicApp(ctx, appKey);
  const identity = await identifyCaller(request.headers, app, ctx.clock);
  if (app.allowAnonymousFeedback !== 1 && !identity.identified) {
    throw new ApiError("authentication_required", { message: "Sign in is required to send feedback" });
  }
  requireIdentifiedWrite(app, identity);
  return { app, tokenHash: uploaderHash(identity.token) };
}

function appKeyRequired(): ApiError {
  return new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { appKey: ["Required"] } } });
}

/**
 * Uploads: legacy multipart (`/uploads/images`, `/uploads/objects`, `/uploads/r2`), upload
 * sessions with their PUT, and signed downloads (`/api/v1/files/:uploadId`). Registers its own
 * scopes: multipart parsing and raw bodies exist only where these routes need them.
 */
export async function uploadPublicRoutes(scope: App, ctx: Context): Promise<void> {
  const db = ctx.db.kysely;

  /**
   * Checks the file of a multipart upload as it streams into storage under `key`. With an
   * Idempotency-Key, the request is told apart by its text fields and the file's name, type and
   * digest (the multipart boundary changes between retries), reserved once the file is in.
   */
  const multipartUpload = async (request: FastifyRequest, reply: FastifyReply, kind: UploadKind, answerKind: string): Promise<void> => {
    await enforceRateLimit(ctx, request, "upload");
    const state: {
      uploader?: Uploader;
      file?: { filename: string; mimeType: string; size: number; sha256: string; sent: { filename: string; type: string } };
      fields: [string, unknown][];
    } = { fields: [] };
    const headerKey = header(request, "x-app-key");
    if (headerKey !== undefined) state.uploader = await resolveUploader(ctx, request, headerKey);
    const id = newUploadId();
    const key = newStorageKey(id);
    try {
      // Until the app is known (app key after the file), the instance-wide ceiling applies.
      const maxBytes = () => state.uploader?.app.maxAttachmentBytes ?? MAX_ATTACHMENT_BYTES_LIMIT;
      await readMultipart(request, { fileSize: maxBytes() + 1 }, {
        onField: async (part) => {
          state.fields.push([part.fieldname, part.value]);
          if (part.fieldname === "appKey" && state.uploader === undefined && typeof part.value === "string" && part.value.trim() !== "") {
            state.uploader = await resolveUploader(ctx, request, part.value.trim());
          }
        },
        onFile: async (part) => {
          const filename = sanitizeFilename(part.filename, kind === "image" ? "image" : "file");
          let mimeType: string;
          let inspect: (head: Buffer) => void;
          if (kind === "image") {
            const claimed = claimedImageType(part.mimetype.toLowerCase(), filename);
            mimeType = claimed ?? "application/octet-stream";
            inspect = (head) => {
              mimeType = checkImageBytes(head, claimed, filename);
            };
          } else {
            refuseExecutableName(filename);
            mimeType = objectMimeType(part.mimetype);
            inspect = refuseExecutableBytes;
          }
          const received = await receiveFile(ctx.storage, key, part.file, { maxBytes: maxBytes(), inspect });
          state.file = { filename, mimeType, ...received, sent: { filename: part.filename, type: part.mimetype } };
        },
      });
      const { uploader, file } = state;
      if (uploader === undefined) throw appKeyRequired();
      if (file === undefined) throw new ApiError("invalid_upload", { message: "A file part named file is required" });
      if (file.size > uploader.app.maxAttachmentBytes) throw new ApiError("file_too_large");
      const fields = state.fields.map(([name, value]) => canonicalPair(name, value)).sort();
      const appKeyField = state.fields.find(([name]) => name === "appKey")?.[1];
      const replay = await reserveAfterBody(ctx, request, { appKey: appKeyField }, { fields, file: { ...file.sent, size: file.size, sha256: file.sha256 } });
      if (replay !== undefined) {
        await ctx.storage.delete(key);
        sendReplay(reply, replay);
        return;
      }
      const now = isoNow(ctx.clock);
      const row: UploadRow = {
        id,
        appId: uploader.app.id,
        sessionId: null,
        submissionId: null,
        kind,
        status: "uploaded",
        storageKey: key,
        clientFileId: null,
        filename: file.filename,
        mimeType: file.mimeType,
        maxBytes: uploader.app.maxAttachmentBytes,
        size: file.size,
        sha256: file.sha256,
        uploaderTokenHash: uploader.tokenHash,
        createdAt: now,
        uploadedAt: now,
        attachedAt: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("uploads").values(row).execute();
        await recordIdempotentWrite(trx, request);
      });
      void reply.send(await toDescriptor(ctx, row, answerKind));
    } catch (error) {
      await ctx.storage.delete(key);
      throw error;
    }
  };

  /**
   * The bytes of one session slot, raw or as a multipart `file` part. With an Idempotency-Key the
   * request is told apart by the file's digest, so a repeat after success reads the bytes again
   * to replay the first answer instead of refusing with 409 `already_uploaded`.
   */
  const sessionPut = async (request: FastifyRequest, reply: FastifyReply, uploadId: string): Promise<void> => {
    await enforceRateLimit(ctx, request, "upload");
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header(request, "authorization") ?? "")?.[1];
    const token = bearer ?? header(request, "x-upload-session-token");
    const session =
      token === undefined ? undefined : await db.selectFrom("uploadSessions").selectAll().where("tokenHash", "=", sha256(token)).executeTakeFirst();
    if (session === undefined || session.expiresAt <= isoNow(ctx.clock)) throw new ApiError("session_invalid_or_expired");
    const slot = await db.selectFrom("uploads").selectAll().where("id", "=", uploadId).where("sessionId", "=", session.id).executeTakeFirst();
    if (slot === undefined) throw new ApiError("upload_not_found");
    if (slot.status !== "pending" && !hasIdempotencyKey(request)) throw new ApiError("already_uploaded");
    const isMultipart = request.isMultipart();
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > slot.maxBytes + (isMultipart ? MULTIPART_OVERHEAD : 0)) throw new ApiError("file_too_large");

    let mimeType = slot.mimeType;
    const inspect =
      slot.kind === "image"
        ? (head: Buffer) => {
            mimeType = checkImageBytes(head, slot.mimeType as ImageType, slot.filename);
          }
        : refuseExecutableBytes;
    const key = newStorageKey(slot.id);
    try {
      let received: { size: number; sha256: string } | undefined;
      if (isMultipart) {
        await readMultipart(request, { fileSize: slot.maxBytes + 1 }, {
          onField: async () => {},
          onFile: async (part) => {
            received = await receiveFile(ctx.storage, key, part.file, { maxBytes: slot.maxBytes, inspect });
          },
        });
      } else {
        const source = request.body as Readable | undefined;
        if (source === undefined || source === null || typeof source.pipe !== "function") {
          throw new ApiError("invalid_upload", { message: "The file is empty" });
        }
        try {
          received = await receiveFile(ctx.storage, key, source, { maxBytes: slot.maxBytes, inspect });
        } catch (error) {
          throw multipartError(error);
        }
      }
      if (received === undefined) throw new ApiError("invalid_upload", { message: "A file part named file is required" });
      const replay = await reserveAfterBody(ctx, request, {}, { size: received.size, sha256: received.sha256 });
      if (replay !== undefined) {
        await ctx.storage.delete(key);
        sendReplay(reply, replay);
        return;
      }
      const now = isoNow(ctx.clock);
      const changes = { status: "uploaded" as const, storageKey: key, size: received.size, sha256: received.sha256, mimeType, uploadedAt: now };
      // Guarded: of two concurrent PUTs to one slot, exactly one stores; the other removes its copy.
      await db.transaction().execute(async (trx) => {
        const updated = await trx.updateTable("uploads").set(changes).where("id", "=", slot.id).where("status", "=", "pending").executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw new ApiError("already_uploaded");
        await recordIdempotentWrite(trx, request);
      });
      void reply.send(await toDescriptor(ctx, { ...slot, ...changes }));
    } catch (error) {
      await ctx.storage.delete(key);
      throw error;
    }
  };

  // Legacy multipart uploads: multipart parsing in this scope only.
  await scope.register(async (child) => {
    const typed = child.withTypeProvider<TypeBoxTypeProvider>();
    await child.register(multipart, { throwFileSizeLimit: false });
    const schema = (summary: string, description: string) => ({
      tags,
      summary,
      description,
      readsHeaders: ["X-App-Key", ...IDENTITY_HEADERS] as const,
      documentedBody: { "multipart/form-data": MultipartFile },
      response: { 200: UploadDescriptorSchema, ...errors },
    });
    typed.post(
      "/api/v1/uploads/images",
      {
        schema: schema(
          "Upload an image (multipart `appKey` + `file`)",
          "PNG, JPEG, WebP, GIF or HEIC, checked by its first bytes (415 otherwise; SVG is refused). At most the app's `maxAttachmentBytes` (413 `file_too_large`). App key also from `X-App-Key`; uploader from `X-User-Token`.",
        ),
        config: streamed,
      },
      async (request, reply) => {
        await multipartUpload(request, reply, "image", "image");
        return reply;
      },
    );
    const objectDescription =
      "Logs, JSON, archives and other data files; executable names and binaries are refused (400 `executable_extension_prohibited`). At most the app's `maxAttachmentBytes`.";
    typed.post("/api/v1/uploads/objects", { schema: schema("Upload a file (multipart `appKey` + `file`)", objectDescription), config: streamed }, async (request, reply) => {
      await multipartUpload(request, reply, "object", "object");
      return reply;
    });
    typed.post("/api/v1/uploads/r2", { schema: schema("Legacy alias of /uploads/objects", objectDescription), config: streamed }, async (request, reply) => {
      await multipartUpload(request, reply, "object", "r2");
      return reply;
    });
  });

  // Session PUTs take raw bytes of any type, or multipart: every parser is replaced here.
  await scope.register(async (child) => {
    const typed = child.withTypeProvider<TypeBoxTypeProvider>();
    child.removeAllContentTypeParsers();
    child.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    await child.register(multipart, { throwFileSizeLimit: false });
    const routeSchema = {
      tags,
      summary: "Send the bytes of an upload-session slot",
      description:
        "`Authorization: Bearer <sessionToken>` (or `X-Upload-Session-Token`); the body is the raw file with its Content-Type, or multipart with a `file` part. POST is an alias.",
      params: Type.Object({ uploadId: Type.String({ pattern: UPLOAD_ID_PATTERN }) }),
      security: [{ uploadSession: [] }, { uploadSessionHeader: [] }],
      documentedBody: { "*/*": BYTES, "multipart/form-data": Type.Object({ file: BYTES }) },
      response: { 200: UploadDescriptorSchema, ...errors },
    };
    // The PUT takes Idempotency-Key like its POST alias does.
    const put = async (request: FastifyRequest<{ Params: { uploadId: string } }>, reply: FastifyReply) => {
      await sessionPut(request, reply, request.params.uploadId);
      return reply;
    };
    typed.put("/api/v1/uploads/:uploadId", { schema: routeSchema, config: streamed }, put);
    typed.post("/api/v1/uploads/:uploadId", { schema: { ...routeSchema, hide: true }, config: streamed }, put);
  });

  scope.post(
    "/api/v1/uploads/sessions",
    {
      schema: {
        tags,
        summary: "Open an upload session for 1–8 files", readsHeaders: ["X-App-Key", ...IDENTITY_HEADERS],
        description:
          "Needs `X-User-Token` (400 `uploader_identity_required`). Answers both documented shapes: `{sessionId, sessionToken, expiresAt, uploads}` and `{session, files}`. The token is valid for an hour.",
        body: UploadSessionBodySchema,
        response: { 201: UploadSessionResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "upload");
      const body = request.body;
      const appKey = body.appKey ?? header(request, "x-app-key");
      if (appKey === undefined) throw appKeyRequired();
      const { app, tokenHash } = await resolveUploader(ctx, request, appKey);
      if (tokenHash === null) throw new ApiError("uploader_identity_required");
      const now = isoNow(ctx.clock);
      const sessionId = newId("ups", ctx.clock.now());
      const sessionToken = `cpt_up_${randomToken(40)}`;
      const expiresAt = new Date(ctx.clock.now().getTime() + UPLOAD_SESSION_TTL_MS).toISOString();
      const slots = body.files.map((file, index): UploadRow => {
        const filename = sanitizeFilename(file.filename);
        refuseExecutableName(filename);
        const declared = (file.mimeType ?? file.contentType ?? "").split(";")[0]!.trim().toLowerCase();
        const size = file.size ?? file.sizeBytes;
        if (REFUSED_TYPES.has(declared)) throw new ApiError("unsupported_mime_type", { message: `Files of type ${declared} cannot be uploaded` });
        let kind: UploadKind = "object";
        let mimeType = objectMimeType(declared);
        if (declared.startsWith("image/") || body.purpose === "branding") {
          let claimed: ImageType | undefined;
          try {
            claimed = claimedImageType(declared, filename);
          } catch {
            claimed = undefined;
          }
          if (claimed === undefined) throw new ApiError("unsupported_mime_type", { message: "Images must be PNG, JPEG, WebP, GIF or HEIC" });
          kind = "image";
          mimeType = claimed;
        }
        if (size !== undefined && size > app.maxAttachmentBytes) throw new ApiError("file_too_large");
        const id = newUploadId();
        return {
          id,
          appId: app.id,
          sessionId,
          submissionId: null,
          kind,
          status: "pending",
          storageKey: newStorageKey(id),
          clientFileId: file.clientFileId ?? `file-${index + 1}`,
          filename,
          mimeType,
          maxBytes: app.maxAttachmentBytes,
          size: null,
          sha256: null,
          uploaderTokenHash: tokenHash,
          createdAt: now,
          uploadedAt: null,
          attachedAt: null,
        };
      });
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("uploadSessions")
          .values({ id: sessionId, appId: app.id, tokenHash: sha256(sessionToken), uploaderTokenHash: tokenHash, purpose: body.purpose ?? "feedback_attachment", expiresAt, createdAt: now })
          .execute();
        await trx.insertInto("uploads").values(slots).execute();
        await recordIdempotentWrite(trx, request);
      });
      const files = slots.map((slot) => ({
        clientFileId: slot.clientFileId ?? "",
        uploadId: slot.id,
        uploadUrl: `/api/v1/uploads/${slot.id}`,
        filename: slot.filename,
        mimeType: slot.mimeType,
        maxBytes: slot.maxBytes,
        maxSizeBytes: slot.maxBytes,
      }));
      return reply.code(201).send({
        sessionId,
        sessionToken,
        expiresAt,
        uploads: files,
        session: { sessionId, sessionToken, expiresAt, maxFileSizeBytes: app.maxAttachmentBytes, maxFiles: MAX_ATTACHMENTS },
        files,
      });
    },
  );

  scope.get(
    "/api/v1/files/:uploadId",
    {
      schema: {
        tags,
        summary: "Download a stored upload through a signed link",
        description:
          "Links come from upload answers (for the end user) and the console (`for=console`); they expire after an hour (403 `invalid_download_link`). " +
          "Every download checks again that the upload, its feedback and its app still exist, and for an end user's link that the app is still public (404 `upload_not_found` otherwise). " +
          "Served as an attachment with `X-Content-Type-Options: nosniff`, a sandbox CSP and `Cache-Control: private, no-cache`.",
        params: Type.Object({ uploadId: Type.String({ pattern: UPLOAD_ID_PATTERN }) }),
        querystring: Type.Object({
          expires: Type.Optional(Type.String({ maxLength: 20 })),
          sig: Type.Optional(Type.String({ maxLength: 128 })),
          for: Type.Optional(Type.String({ maxLength: 16 })),
        }),
        response: { 403: ErrorBodySchema, 404: ErrorBodySchema },
        documentedAnswers: { 200: { description: "The file, as an attachment", content: { "application/octet-stream": BYTES } } },
      },
    },
    async (request, reply) => {
      const { uploadId } = request.params;
      const expires = Number(request.query.expires ?? "");
      const audience = request.query.for === undefined ? "public" : request.query.for === "console" ? "console" : undefined;
      if (audience === undefined || !(await verifyDownloadLink(ctx, uploadId, expires, request.query.sig ?? "", audience))) {
        throw new ApiError("invalid_download_link");
      }
      const row = await downloadableUpload(db, uploadId, audience);
      const stream = row === undefined ? undefined : await ctx.storage.get(row.storageKey);
      if (row === undefined || stream === undefined) throw new ApiError("upload_not_found");
      return reply
        .headers({
          "Content-Type": row.mimeType,
          "Content-Disposition": attachmentDisposition(row.filename),
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "sandbox; default-src 'none'",
          // Revalidated every time, so a browser never shows a file its link no longer serves.
          "Cache-Control": "private, no-cache",
          ...(row.size === null ? {} : { "Content-Length": String(row.size) }),
        })
        .send(stream as never);
    },
  );
}
