import { describe, expect, it } from "vitest";
import { formatReleaseDate } from "./release-date.js";

describe("formatReleaseDate", () => {
  it("writes the day in the reader's language", () => {
    expect(formatReleaseDate("2026-02-01T12:00:00Z", "en")).toBe("February 1, 2026");
    expect(formatReleaseDate("2026-02-01T12:00:00Z", "de")).toBe("1. Februar 2026");
  });

  it("shows nothing for a timestamp it cannot read", () => {
    expect(formatReleaseDate("not a date", "en")).toBe("");
  });
});
