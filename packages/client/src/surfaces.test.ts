import { describe, expect, it } from "vitest";
import { isSurfaceEnabled } from "./feature-flags.js";
import { detectRuntimePlatform, resolveSubmissionPlatform } from "./platform.js";
import { groupRoadmapRequests, ROADMAP_OTHER_COLUMN_ID } from "./roadmap.js";
import type { BoardColumn, FeatureRequestItem } from "./types.js";

describe("isSurfaceEnabled (rule 6)", () => {
  it("is off only on an explicit false", () => {
    expect(isSurfaceEnabled({ sdk: { features: { roadmap: false } } }, "roadmap")).toBe(false);
    expect(isSurfaceEnabled({ sdk: { features: { roadmap: false } } }, "changelog")).toBe(true);
    expect(isSurfaceEnabled({ sdk: {} }, "feedback")).toBe(true);
    expect(isSurfaceEnabled(null, "feedback")).toBe(true);
    expect(isSurfaceEnabled(undefined, "featureRequests")).toBe(true);
  });
});

describe("platforms (rule 4)", () => {
  it("takes draft, then default, then runtime, and falls back to the first allowed", () => {
    expect(resolveSubmissionPlatform({ draft: "ios", defaultPlatform: "web", allowed: [] })).toBe("ios");
    expect(resolveSubmissionPlatform({ defaultPlatform: "web", runtime: "universal", allowed: ["web"] })).toBe("web");
    expect(resolveSubmissionPlatform({ runtime: "universal", allowed: ["android", "ios"] })).toBe("android");
    expect(resolveSubmissionPlatform({ draft: "macos", allowed: ["ios"] })).toBe("ios");
  });

  it("detects the runtime by feature detection", () => {
    expect(detectRuntimePlatform({})).toBe("universal");
    expect(detectRuntimePlatform({ navigator: { product: "ReactNative" } })).toBe("universal");
    expect(detectRuntimePlatform({ navigator: { userAgent: "Node.js/22" } })).toBe("universal");
    expect(detectRuntimePlatform({ navigator: { userAgent: "Mozilla/5.0" }, document: {} })).toBe("web");
  });
});

describe("groupRoadmapRequests (rule 7)", () => {
  const column = (id: string, position: number, isVisible = true) => ({ id, slug: id, position, isVisible }) as BoardColumn;
  const request = (id: string, columnId: string | null, status = "x") => ({ id, columnId, status }) as FeatureRequestItem;

  it("puts requests of hidden, deleted and unknown columns under Other", () => {
    const groups = groupRoadmapRequests(
      [column("done", 2), column("planned", 1), column("review", 0, false)],
      [request("a", "planned"), request("b", "review"), request("c", "gone"), request("d", null, "done"), request("e", null, "open")],
    );
    expect(groups.map((g) => [g.id, g.requests.map((r) => r.id)])).toEqual([
      ["planned", ["a"]],
      ["done", ["d"]],
      [ROADMAP_OTHER_COLUMN_ID, ["b", "c", "e"]],
    ]);
  });

  it("adds no Other tab when every request has a visible column", () => {
    expect(groupRoadmapRequests([column("p", 0)], [request("a", "p")]).map((g) => g.id)).toEqual(["p"]);
  });
});
