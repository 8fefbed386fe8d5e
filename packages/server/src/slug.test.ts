import { describe, expect, it } from "vitest";
import { slugify, uniqueSlug } from "./slug.js";

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

describe("uniqueSlug", () => {
  it("numbers a taken slug and keeps it a valid slug when the cut falls on a hyphen", () => {
    expect(uniqueSlug("notes", new Set(["notes", "notes-2"]))).toBe("notes-3");
    const base = slugify(`${"a".repeat(59)} ${"b".repeat(10)}`);
    expect(base.charAt(59)).toBe("-");
    const next = uniqueSlug(base, new Set([base]));
    expect(next).toBe(`${"a".repeat(59)}-2`);
    expect(next).toMatch(SLUG);
  });
});
