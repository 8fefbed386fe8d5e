import type { MultipartFile, MultipartValue } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../http/errors.js";
import { multipartFault } from "../http/multipart-faults.js";

/**
 * Maps a failure while reading a multipart body to the client error it is (see
 * `multipartFault`): limits and truncated or malformed bodies are 400 `invalid_upload`; anything
 * else is rethrown as is.
 */
export function multipartError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const { code } = (error ?? {}) as { code?: unknown };
  switch (multipartFault(error)) {
    case "limit":
      return code === "FST_FILES_LIMIT"
        ? new ApiError("invalid_upload", { message: "Send exactly one file part, named file" })
        : new ApiError("invalid_upload", { message: "Too many form fields" });
    case "file_too_large":
      return new ApiError("file_too_large");
    case "not_multipart":
      return new ApiError("unsupported_media_type", { message: "Send multipart/form-data" });
    case "malformed":
      return code === "FST_PROTO_VIOLATION" || code === "FST_INVALID_JSON_FIELD_ERROR"
        ? new ApiError("invalid_upload")
        : new ApiError("invalid_upload", { message: "The multipart body is truncated or malformed" });
    case undefined:
      return error;
  }
}

/** A text field of a multipart body. */
export type FieldPart = MultipartValue<unknown>;

/**
 * Walks a multipart body in order: `onField` for text fields, `onFile` for the single part named
 * `file` (which must consume its stream). A second file part or a file under another name is
 * 400 `invalid_upload`, as is a body without a file part.
 */
export async function readMultipart(
  request: FastifyRequest,
  limits: { fileSize: number },
  handlers: { onField(part: FieldPart): Promise<void>; onFile(part: MultipartFile): Promise<void> },
): Promise<void> {
  if (!request.isMultipart()) {
    throw new ApiError("unsupported_media_type", { message: "Send multipart/form-data with the fields appKey and file" });
  }
  let files = 0;
  try {
    const parts = request.parts({ limits: { files: 1, fields: 20, parts: 30, fieldSize: 8192, fileSize: limits.fileSize } });
    for await (const part of parts) {
      if (part.type === "field") {
        await handlers.onField(part);
        continue;
      }
      if (part.fieldname !== "file") {
        part.file.resume();
        throw new ApiError("invalid_upload", { message: `Unexpected file part "${part.fieldname}": send one part named file` });
      }
      files++;
      try {
        await handlers.onFile(part);
      } catch (error) {
        // A refused file is drained, so the parser can reach the end of the body.
        part.file.resume();
        throw error;
      }
    }
  } catch (error) {
    throw multipartError(error);
  }
  if (files === 0) throw new ApiError("invalid_upload", { message: "A file part named file is required" });
}
