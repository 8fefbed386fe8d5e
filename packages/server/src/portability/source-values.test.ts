import { describe, expect, it } from "vitest";
import { isoDate } from "./source-values.js";

describe("isoDate", () => {
  it("reads the ISO 8601 forms exports use, as UTC", () => {
    expect(isoDate("2024-03-01")).toBe("2024-03-01T00:00:00.000Z");
    expect(isoDate("2024-03-01T09:30:00Z")).toBe("2024-03-01T09:30:00.000Z");
    expect(isoDate("2024-03-01 09:30")).toBe("2024-03-01T09:30:00.000Z");
    expect(isoDate("2024-03-01T09:30:00.123456Z")).toBe("2024-03-01T09:30:00.123Z");
    expect(isoDate("2024-03-01T00:30:00+02:00")).toBe("2024-02-29T22:30:00.000Z");
    expect(isoDate("2024-03-01T00:30:00-0130")).toBe("2024-03-01T02:00:00.000Z");
    expect(isoDate(" 2024-03-01t09:30:00z ")).toBe("2024-03-01T09:30:00.000Z");
    expect(isoDate(1_709_285_400_000)).toBe("2024-03-01T09:30:00.000Z");
  });

  it("refuses what is not a real moment", () => {
    for (const bad of ["2024-02-30", "2023-02-29", "2024-13-01", "2024-03-01T24:30:00Z", "01/03/2024", "yesterday", "", "2024-03-01T09:30:00+25:00", "1e309"]) {
      expect({ bad, parsed: isoDate(bad) }).toEqual({ bad, parsed: null });
    }
    expect(isoDate(Number.NaN)).toBeNull();
    expect(isoDate(1e20)).toBeNull();
    expect(isoDate(null)).toBeNull();
    expect(isoDate({})).toBeNull();
  });
});
