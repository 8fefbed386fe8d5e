import { UnexpectedStatusException } from "@tidings/client";
import { describe, expect, it } from "vitest";
import { avatarInitial, isProfileMissing, profileView } from "./profile-view.js";

describe("profile view", () => {
  it("takes a whole character for the avatar initial, never half an emoji", () => {
    expect(avatarInitial("ada")).toBe("A");
    expect(avatarInitial("🦄 Bob")).toBe("🦄");
    expect(avatarInitial("👩‍💻 dev")).toBe("👩‍💻");
    expect(avatarInitial("e\u0301mile")).toBe("E\u0301");
    expect(avatarInitial("")).toBe("");
  });

  it("reads the legacy shape and drops unsafe links", () => {
    const view = profileView(
      {
        profile: { displayName: " ", avatarUrl: "http://img.test/a.png", websiteUrl: "javascript:alert(1)", bio: "Hi" },
        recentComments: [{ id: "c1", body: "Nice", featureRequestTitle: "Dark mode", createdAt: "2026-01-02T00:00:00Z" }, null, { body: "Two" }],
        hideComments: false,
      },
      { fallbackName: "Ada", locale: "en-US" },
    );
    expect(view).toEqual({
      name: "Ada",
      avatarUrl: undefined,
      bio: "Hi",
      websiteUrl: undefined,
      comments: [
        { key: "c1", body: "Nice", requestTitle: "Dark mode", date: "1/2/2026" },
        { key: "2", body: "Two", requestTitle: undefined, date: "" },
      ],
      commentsHidden: false,
    });
  });

  it("reads the newest shape, with hidden comments inside the profile", () => {
    const view = profileView({ profile: { displayName: "Bob", avatarUrl: "https://img.test/b.png", websiteUrl: "https://bob.test", hideComments: true } }, { locale: "en" });
    expect(view).toMatchObject({ name: "Bob", avatarUrl: "https://img.test/b.png", websiteUrl: "https://bob.test", comments: [], commentsHidden: true });
    expect(isProfileMissing(new UnexpectedStatusException("Not found", { status: 404 }))).toBe(true);
    expect(isProfileMissing(new UnexpectedStatusException("Down", { status: 503 }))).toBe(false);
  });
});
