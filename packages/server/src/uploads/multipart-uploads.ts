import multipart from "@fastify/multipart";
import { MAX_ATTACHMENT_BYTES_LIMIT, UploadDescriptorSchema } from "@tidings/protocol";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { recordIdempotentWrite, reserveAfterBody, sendReplay } from "../http/idempotency.js";
import { BYTES, IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { refuseExecutableBytes, refuseExecutableName } from "./executables.js";
import { sanitizeFilename } from "./filenames.js";
import { checkImageBytes, claimedImageType } from "./image-types.js";
import { objectMimeType } from "./object-types.js";
import { readMultipart } from "./multipart.js";
import { receiveFile } from "./receive.js";
import { errors, streamed, tags } from "./route-options.js";
import { appKeyRequired, header, resolveUploader, type Uploader } from "./uploader.js";
import { newStorageKey, newUploadId, toDescriptor, type UploadKind, type UploadRow } from "./uploads.js";

/** The documented form of a multipart upload (read part by part, never validated as a whole). */
const MultipartFile = Type.Object({
  appKey: Type.Optional(Type.String({ description: "The app key (or `X-App-Key`); before the file part" })),
  file: { ...BYTES, description: "The file, with its name and Content-Type" },
});

/** A multipart text field as fingerprint text (values are strings; anything else is serialised). */
function canonicalPair(name: string, value: unknown): string {
  return JSON.stringify([name, typeof value === "string" ? value : JSON.stringify(value ?? null)]);
}

/**
 * Checks the file of a multipart upload as it streams into storage under `key`. With an
 * Idempotency-Key, the request is told apart by its text fields and the file's name, type and
 * digest (the multipart boundary changes between retries), reserved once the file is in.
 */
async function multipartUpload(ctx: Context, request: FastifyRequest, reply: FastifyReply, kind: UploadKind, answerKind: string): Promise<void> {
  const db = ctx.db.kysely;
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
}

/** Legacy multipart uploads (`/uploads/images`, `/uploads/objects`, `/uploads/r2`), with multipart parsing in their scope only. */
export async function multipartUploadRoutes(scope: App, ctx: Context): Promise<void> {
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
        await multipartUpload(ctx, request, reply, "image", "image");
        return reply;
      },
    );
    const objectDescription =
      "Logs, JSON, archives and other data files; executable names and binaries are refused (400 `executable_extension_prohibited`). At most the app's `maxAttachmentBytes`.";
    typed.post("/api/v1/uploads/objects", { schema: schema("Upload a file (multipart `appKey` + `file`)", objectDescription), config: streamed }, async (request, reply) => {
      await multipartUpload(ctx, request, reply, "object", "object");
      return reply;
    });
    typed.post("/api/v1/uploads/r2", { schema: schema("Legacy alias of /uploads/objects", objectDescription), config: streamed }, async (request, reply) => {
      await multipartUpload(ctx, request, reply, "object", "r2");
      return reply;
    });
  });
}
