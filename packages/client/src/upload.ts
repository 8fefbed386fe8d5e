import { isImageUpload, type AttachmentDescriptor, type UploadRequest } from "./attachments.js";
import { nonBlank } from "./blank.js";
import type { IdempotentCallOptions } from "./call-options.js";
import { InvalidResponseException } from "./errors.js";
import type { ClientSession } from "./session.js";

/** Uploads a file as multipart `appKey` + `file` to the image or object endpoint, within `uploadTimeoutMs`. */
export async function uploadAttachment(
  s: ClientSession,
  request: UploadRequest,
  options: { userToken?: string | undefined } & IdempotentCallOptions,
): Promise<AttachmentDescriptor> {
  const image = isImageUpload(request);
  const form = new FormData();
  form.append("appKey", s.client.appKey);
  const file = request.file;
  if (typeof file === "string" || (typeof file === "object" && "uri" in file && typeof file.uri === "string")) {
    // React Native's FormData takes {uri, name, type} file references.
    const ref = typeof file === "string" ? { uri: file } : file;
    form.append("file", { uri: ref.uri, name: ref.name ?? request.filename, type: ref.type ?? request.mimeType } as unknown as Blob);
  } else {
    const blob = file instanceof Blob ? file : new Blob([file as BlobPart], { type: request.mimeType });
    form.append("file", blob, request.filename);
  }
  const headers = await s.identity.headers(options);
  const { data } = await s.send<Record<string, unknown>>({
    method: "POST",
    path: image ? "/api/v1/uploads/images" : "/api/v1/uploads/objects",
    form,
    headers: { ...headers, "Idempotency-Key": nonBlank(options.idempotencyKey) },
    signal: request.signal,
    timeoutMs: request.timeoutMs ?? s.client.uploadTimeoutMs,
    allowEmptyBody: false,
  });
  const str = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const key = str(data.key) ?? str(data.id) ?? str(data.uploadId);
  if (key === undefined) throw new InvalidResponseException("The upload answer names no stored object", { rawBody: JSON.stringify(data) });
  const descriptor: AttachmentDescriptor = {
    kind: str(data.kind) ?? request.preferredKind ?? (image ? "image" : "file"),
    key,
    url: str(data.url) ?? "",
    filename: str(data.filename) ?? request.filename,
    mimeType: str(data.mimeType) ?? request.mimeType,
  };
  if (typeof data.size === "number") descriptor.size = data.size;
  const uploadId = str(data.uploadId);
  if (uploadId !== undefined) descriptor.uploadId = uploadId;
  return descriptor;
}
