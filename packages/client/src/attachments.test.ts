import { describe, expect, it } from "vitest";
import { isImageUpload, normalizePickedAttachment, UnsupportedAttachmentException } from "./attachments.js";

describe("normalizePickedAttachment (rule 10)", () => {
  it("attaches an uploaded descriptor as is", () => {
    const descriptor = { kind: "image", key: "k1", url: "https://x/k1" };
    expect(normalizePickedAttachment(descriptor)).toEqual({ type: "descriptor", descriptor });
  });

  it("turns an upload request into an upload", () => {
    const request = { file: new Blob(["x"]), filename: "log.txt", mimeType: "text/plain" };
    expect(normalizePickedAttachment(request)).toEqual({ type: "upload", request });
  });

  it("normalises the legacy picker shape, guessing name and type from the URI", () => {
    expect(normalizePickedAttachment({ fileUri: "file:///tmp/Screen%20Shot.png", kind: "image" })).toEqual({
      type: "upload",
      request: {
        file: { uri: "file:///tmp/Screen%20Shot.png", name: "Screen Shot.png", type: "image/png" },
        filename: "Screen Shot.png",
        mimeType: "image/png",
        preferredKind: "image",
      },
    });
  });

  it("refuses any other shape with a localizable error", () => {
    for (const value of [null, "file.png", 42, {}, { uri: "file:///x" }, { kind: "image" }]) {
      let caught: unknown;
      try {
        normalizePickedAttachment(value);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(value)).toBeInstanceOf(UnsupportedAttachmentException);
      expect((caught as UnsupportedAttachmentException).messageId).toBe("error.unsupportedAttachment");
    }
  });

  it("sends images by mime type or preferred kind", () => {
    expect(isImageUpload({ mimeType: "image/jpeg" })).toBe(true);
    expect(isImageUpload({ mimeType: "application/octet-stream", preferredKind: "image" })).toBe(true);
    expect(isImageUpload({ mimeType: "text/plain" })).toBe(false);
  });
});
