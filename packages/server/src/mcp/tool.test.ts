import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors.js";
import { dateInput, excerpt, inField, toolError } from "./tool.js";

describe("tool inputs and answers", () => {
  it("reads a day as midnight UTC and a time with its offset, refusing what is not a real moment", () => {
    const since = dateInput();
    expect(since.parse("2026-03-01")).toBe("2026-03-01T00:00:00.000Z");
    expect(since.parse("2026-03-01T10:00:00+02:00")).toBe("2026-03-01T08:00:00.000Z");
    expect(since.parse("2024-02-29T23:59Z")).toBe("2024-02-29T23:59:00.000Z");
    for (const bad of ["2026-02-30", "2025-02-29", "yesterday", "2026-03-01T10:00:00", "2026-3-1", "2026-03-01T25:00Z"]) {
      expect(since.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("cuts long texts at a word, counting characters, not UTF-16 units", () => {
    expect(excerpt("short")).toBe("short");
    expect(excerpt("one two three four", 9)).toBe("one two…");
    expect(excerpt("😀".repeat(10), 4)).toBe("😀😀😀😀…");
  });

  it("answers a refusal with its code and the field it names, and anything else without its message", async () => {
    const refusal = toolError(await inField("boardId", Promise.reject(new ApiError("board_not_found"))).catch((e: unknown) => e), () => {});
    expect(refusal.isError).toBe(true);
    expect(JSON.parse((refusal.content[0] as { text: string }).text)).toMatchObject({ code: "board_not_found", fields: ["boardId"] });
    const logged: unknown[] = [];
    const internal = toolError(new Error("relation \"secret_table\" does not exist"), (e) => logged.push(e));
    expect((internal.content[0] as { text: string }).text).not.toContain("secret_table");
    expect(logged).toHaveLength(1);
  });
});
