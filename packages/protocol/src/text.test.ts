import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { graphemeBoundaries, hostileText, isWellFormed } from "./testing/hostile-text.js";
import { dropLoneSurrogates, textLength, truncateText } from "./text.js";

describe("truncateText", () => {
  it("never splits an astral character, a combining sequence, a flag or a ZWJ emoji", () => {
    expect(truncateText(`a${"🦄".repeat(150)}`, 200)).toBe(`a${"🦄".repeat(99)}`);
    expect(truncateText("ab👩‍💻", 6)).toBe("ab");
    expect(truncateText("ab👩‍💻", 7)).toBe("ab👩‍💻");
    expect(truncateText("ae\u0301\u0302", 3)).toBe("a");
    expect(truncateText("x🇫🇷🇩🇪", 6)).toBe("x🇫🇷");
    expect(truncateText("short", 10)).toBe("short");
  });

  it("cuts between code points only when the first cluster alone is over the budget", () => {
    const zalgo = `e${"\u0301".repeat(50)}`;
    expect(truncateText(`${zalgo}rest`, 10)).toBe(zalgo.slice(0, 10));
    expect(truncateText("👨‍👩‍👧‍👦", 3)).toBe("👨\u200d");
    expect(truncateText("🦄", 1)).toBe("");
  });

  it("holds for any text: a prefix within the budget, ending on a boundary, as long as it can be", () => {
    fc.assert(
      fc.property(hostileText(), fc.integer({ min: 0, max: 300 }), (text, max) => {
        const out = truncateText(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(text.startsWith(out)).toBe(true);
        if (text.length <= max) {
          expect(out).toBe(text);
          return;
        }
        const boundaries = [...graphemeBoundaries(text)].sort((a, b) => a - b);
        const longestFit = boundaries.filter((b) => b <= max).at(-1) ?? 0;
        if (longestFit > 0) expect(out.length).toBe(longestFit);
        else if (isWellFormed(text)) expect(isWellFormed(out)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("dropLoneSurrogates", () => {
  it("drops unpaired halves and keeps pairs", () => {
    expect(dropLoneSurrogates("a\uD800b\uDC00c🦄\uD83E")).toBe("abc🦄");
    fc.assert(fc.property(hostileText(), (text) => isWellFormed(dropLoneSurrogates(text))));
  });
});

describe("textLength", () => {
  it("counts code points, as the schemas' maxLength does", () => {
    expect(textLength("")).toBe(0);
    expect(textLength("abc")).toBe(3);
    expect(textLength("🦄".repeat(60))).toBe(60);
    expect(textLength("e\u0301")).toBe(2);
    expect(textLength("\uD800x\uDC00")).toBe(3);
    fc.assert(fc.property(hostileText(), (text) => textLength(text) === [...text].length));
  });
});

describe("without Intl.Segmenter (as on Hermes)", () => {
  const segmenter = Object.getOwnPropertyDescriptor(Intl, "Segmenter")!;
  afterEach(() => {
    Object.defineProperty(Intl, "Segmenter", segmenter);
    vi.resetModules();
  });

  it("loads, and cuts between code points within the budget", async () => {
    delete (Intl as { Segmenter?: unknown }).Segmenter;
    expect("Segmenter" in Intl).toBe(false);
    vi.resetModules();
    const text = await import("./text.js");
    expect(text.truncateText("a🦄🦄", 4)).toBe("a🦄");
    expect(text.truncateText("a🦄🦄", 3)).toBe("a🦄");
    expect(text.truncateText("🦄", 1)).toBe("");
    expect(text.textLength("a🦄")).toBe(2);
    fc.assert(
      fc.property(hostileText(), fc.integer({ min: 0, max: 300 }), (input, max) => {
        const out = text.truncateText(input, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(input.startsWith(out)).toBe(true);
        if (isWellFormed(input)) expect(isWellFormed(out)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
