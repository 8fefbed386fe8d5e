import { describe, expect, it } from "vitest";
import { excerpt } from "./excerpt.js";

describe("excerpts", () => {
  it("cuts long texts at a word, counting characters, not UTF-16 units", () => {
    expect(excerpt("short")).toBe("short");
    expect(excerpt("one two three four", 9)).toBe("one two…");
    expect(excerpt("😀".repeat(10), 4)).toBe("😀😀😀😀…");
  });
});
