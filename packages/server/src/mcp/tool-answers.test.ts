import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors.js";
import { inField, toolError } from "./tool-answers.js";

describe("tool answers", () => {
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
