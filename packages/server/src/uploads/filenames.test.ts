import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { graphemeBoundaries, hostileText, isWellFormed } from "@tidings/protocol/testing";
import { MAX_FILENAME_LENGTH, sanitizeFilename } from "./filenames.js";

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f"*:<>?|/\\\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

describe("sanitizeFilename", () => {
  it("shortens by whole characters and keeps the extension as written", () => {
    expect(sanitizeFilename(`a${"🦄".repeat(150)}.txt`)).toBe(`a${"🦄".repeat(97)}.txt`);
    expect(sanitizeFilename(`${"x".repeat(300)}.PDF`)).toBe(`${"x".repeat(196)}.PDF`);
    expect(sanitizeFilename(`${"👩‍💻".repeat(60)}.log`)).toBe(`${"👩‍💻".repeat(39)}.log`);
    expect(sanitizeFilename(`${"e\u0301".repeat(150)}.md`)).toBe(`${"é".repeat(150)}.md`);
    expect(sanitizeFilename(`${"q\u0323\u0301".repeat(100)}.md`)).toBe(`${"q\u0323\u0301".repeat(65)}.md`);
    expect(sanitizeFilename(`${"🇫🇷".repeat(120)}`)).toBe("🇫🇷".repeat(50));
  });

  it("handles names that are only an extension, have none, or have one longer than the cap", () => {
    expect(sanitizeFilename(".txt")).toBe("txt");
    expect(sanitizeFilename(`.${"🦄".repeat(150)}`)).toBe("🦄".repeat(100));
    expect(sanitizeFilename("🦄".repeat(150))).toBe("🦄".repeat(100));
    expect(sanitizeFilename(`a.${"🦄".repeat(150)}`)).toBe(`a.${"🦄".repeat(99)}`);
    expect(sanitizeFilename(`${"b".repeat(250)}.${"c".repeat(30)}`)).toBe("b".repeat(200));
    expect(sanitizeFilename(". .x")).toBe("x");
    expect(sanitizeFilename("...")).toBe("file");
  });

  it("drops lone surrogates and bidi controls, keeps ZWJ and ZWNJ", () => {
    expect(sanitizeFilename("a\uD800b\uDC00.txt")).toBe("ab.txt");
    expect(sanitizeFilename("\uD800")).toBe("file");
    expect(sanitizeFilename("invoice\u202eexe.pdf")).toBe("invoiceexe.pdf");
    expect(sanitizeFilename("\u200fرسالة\u200e.txt")).toBe("رسالة.txt");
    expect(sanitizeFilename("می\u200cخواهم 👩‍💻.txt")).toBe("می\u200cخواهم 👩‍💻.txt");
  });

  it("answers a short, well-formed, safe and stable name for any input", () => {
    fc.assert(
      fc.property(hostileText(), (raw) => {
        const name = sanitizeFilename(raw);
        expect(name.length).toBeGreaterThan(0);
        expect(name.length).toBeLessThanOrEqual(MAX_FILENAME_LENGTH);
        expect(isWellFormed(name)).toBe(true);
        expect(name).not.toMatch(UNSAFE);
        expect(name).not.toMatch(/^[\s.]|\s$/);
        expect(sanitizeFilename(name)).toBe(name);
      }),
      { numRuns: 300 },
    );
  });

  it("cuts a long name only between grapheme clusters of what it kept", () => {
    const clean = fc
      .array(fc.constantFrom("a", "é", "🦄", "👩‍💻", "🇫🇷", "e\u0301\u0323", "क्षि", "👍🏽", " ", "می\u200cخ"), { minLength: 1, maxLength: 220 })
      .map((parts) => `x${parts.join("")}`);
    fc.assert(
      fc.property(clean, fc.constantFrom("", ".txt", ".🦄", ".tar.gz"), (stem, extension) => {
        const raw = (stem + extension).normalize("NFC");
        const name = sanitizeFilename(raw);
        const kept = extension !== "" && name.endsWith(extension) ? name.slice(0, -extension.length) : name;
        expect(graphemeBoundaries(raw).has(kept.length)).toBe(true);
        expect(raw.startsWith(kept)).toBe(true);
        if (raw.length > MAX_FILENAME_LENGTH && extension !== "") expect(name.endsWith(extension)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
