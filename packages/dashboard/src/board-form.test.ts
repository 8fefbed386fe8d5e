import type { Board } from "@tidings/protocol";
import { describe, expect, it } from "vitest";
import { boardBody, describeAccess, EMPTY_BOARD_FORM, formFromBoard, validateBoard } from "./board-form.js";

const board = {
  id: "brd_1",
  appId: "app_1",
  name: "Integrations",
  slug: "integrations",
  description: "Plugs",
  position: 1,
  visibility: "private",
  accessRule: { plans: ["pro", "team"], isPaying: true, segmentId: "seg_01j0000000000000000000000a" },
  isDefault: false,
  requestCount: 3,
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-01T00:00:00.000Z",
} satisfies Board;

describe("board form", () => {
  it("sends a stored board back unchanged, its access rule included", () => {
    const form = formFromBoard(board);
    expect(form).toMatchObject({ plans: "pro, team", paying: "yes", segmentId: "seg_01j0000000000000000000000a" });
    expect(validateBoard(form)).toEqual({});
    expect(boardBody(form)).toEqual({ name: "Integrations", slug: "integrations", description: "Plugs", visibility: "private", accessRule: { plans: ["pro", "team"], isPaying: true, segmentId: "seg_01j0000000000000000000000a" } });
  });

  it("reads plans as a comma-separated list, and a private board with no condition admits every identified user", () => {
    const form = { ...EMPTY_BOARD_FORM, name: " Bugs ", visibility: "private" as const, plans: " pro,, pro , team ", paying: "no" as const };
    expect(boardBody(form)).toEqual({ name: "Bugs", description: "", visibility: "private", accessRule: { plans: ["pro", "team"], isPaying: false } });
    expect(boardBody({ ...form, plans: "", paying: "any" }).accessRule).toBeNull();
    expect(boardBody({ ...form, plans: "", paying: "any", segmentId: "seg_1" }).accessRule).toEqual({ segmentId: "seg_1" });
    // A public board keeps no rule, whatever the hidden inputs hold.
    expect(boardBody({ ...form, visibility: "public" }).accessRule).toBeNull();
  });

  it("names the server's body paths for every mistake before sending", () => {
    const errors = validateBoard({ ...EMPTY_BOARD_FORM, slug: "Bugs!", description: "d".repeat(501), visibility: "private", plans: Array.from({ length: 21 }, (_, i) => `p${i}`).join(",") });
    expect(errors).toEqual({
      name: ["Required."],
      slug: ["Use 2 to 64 lowercase letters, digits and single dashes."],
      description: ["Use at most 500 characters."],
      "accessRule.plans": ["Use at most 20."],
    });
    expect(validateBoard({ ...EMPTY_BOARD_FORM, name: "🦄".repeat(80) })).toEqual({});
    expect(validateBoard({ ...EMPTY_BOARD_FORM, name: "🦄".repeat(81) }).name).toEqual(["Use at most 80 characters."]);
  });

  it("says who a board is shown to", () => {
    expect(describeAccess(board, () => "Big accounts")).toBe("Private: plans pro, team · paying customers · segment Big accounts");
    expect(describeAccess({ visibility: "private", accessRule: null })).toBe("Private: every identified user");
    expect(describeAccess({ visibility: "public", accessRule: null })).toBe("Public");
  });
});
