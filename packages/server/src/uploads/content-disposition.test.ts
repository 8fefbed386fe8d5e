import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileText } from "@tidings/protocol/testing";
import { attachmentDisposition } from "./content-disposition.js";
import { sanitizeFilename } from "./filenames.js";

describe("attachmentDisposition", () => {
  it("spells each character of the ASCII fallback once and the exact name in filename*", () => {
    expect(attachmentDisposition("Café 🦄 👩‍💻.txt")).toBe(
      `attachment; filename="Cafe _ _.txt"; filename*=UTF-8''Caf%C3%A9%20%F0%9F%A6%84%20%F0%9F%91%A9%E2%80%8D%F0%9F%92%BB.txt`,
    );
    expect(attachmentDisposition("it's (1) 100%*.txt")).toBe(`attachment; filename="it's (1) 100_*.txt"; filename*=UTF-8''it%27s%20%281%29%20100%25%2A.txt`);
  });

  it("is an ASCII header value that decodes back to the name, for any stored name", () => {
    fc.assert(
      fc.property(hostileText(), (raw) => {
        const name = sanitizeFilename(raw);
        const header = attachmentDisposition(name);
        expect(header).toMatch(/^[\x20-\x7e]+$/);
        const [, ascii, encoded] = /^attachment; filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]*)$/.exec(header) ?? [];
        expect(ascii).toBeDefined();
        expect(decodeURIComponent(encoded!)).toBe(name);
      }),
      { numRuns: 300 },
    );
  });
});
