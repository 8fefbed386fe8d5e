import { describe, expect, it } from "vitest";
import { dateInput } from "./tool-inputs.js";

describe("tool inputs", () => {
  it("reads a day as midnight UTC and a time with its offset, refusing what is not a real moment", () => {
    const since = dateInput();
    expect(since.parse("2026-03-01")).toBe("2026-03-01T00:00:00.000Z");
    expect(since.parse("2026-03-01T10:00:00+02:00")).toBe("2026-03-01T08:00:00.000Z");
    expect(since.parse("2024-02-29T23:59Z")).toBe("2024-02-29T23:59:00.000Z");
    for (const bad of ["2026-02-30", "2025-02-29", "yesterday", "2026-03-01T10:00:00", "2026-3-1", "2026-03-01T25:00Z"]) {
      expect(since.safeParse(bad).success, bad).toBe(false);
    }
  });
});
