import { describe, expect, it } from "vitest";
import { titleSimilarity, titleStems, typedMatch, typedTitle } from "./title-similarity.js";

describe("title similarity", () => {
  it("compares titles by their telling words, cut to six letters, accents and case aside", () => {
    expect(titleStems("Add exporting to CSV files")).toEqual(["export", "csv", "files"]);
    expect(titleStems("Please add a Dark-Mode option!")).toEqual(["dark", "mode"]);
    expect(titleStems("Notifications für Ärzte")).toEqual(["notifi", "fur", "arzte"]);
    expect(titleStems("Add a new option")).toEqual([]);
    expect(titleStems("")).toEqual([]);
  });

  it("scores shared words over all words, from 0 to 1", () => {
    const score = (a: string, b: string) => titleSimilarity(titleStems(a), titleStems(b));
    expect(score("Dark mode", "Please add a dark mode")).toBe(1);
    expect(score("Export to CSV", "CSV exports")).toBe(1);
    expect(score("Dark mode", "Dark theme")).toBe(0.5);
    expect(score("Push notifications", "Notification sounds on iOS")).toBe(0.4);
    expect(score("Calendar sync", "Dark mode")).toBe(0);
    expect(score("Add a new option", "Dark mode")).toBe(0);
  });

  it("reads a title being typed by its telling words, the last one as typed so far", () => {
    expect(typedTitle("Please add a dark mo")).toEqual({ terms: ["dark", "mo"], lastIsPrefix: true });
    expect(typedTitle("Exporting to CSV")).toEqual({ terms: ["export", "csv"], lastIsPrefix: true });
    // A last word already read in full, or a filler one, is no prefix.
    expect(typedTitle("dark mode dark")).toEqual({ terms: ["dark", "mode"], lastIsPrefix: false });
    expect(typedTitle("Dark mode please")).toEqual({ terms: ["dark", "mode"], lastIsPrefix: false });
    expect(typedTitle("Please add")).toEqual({ terms: [], lastIsPrefix: false });
    expect(typedTitle("!!")).toEqual({ terms: [], lastIsPrefix: false });
  });

  it("counts the typed words a title holds, then how alike the two are", () => {
    const match = (typed: string, title: string) => typedMatch(typedTitle(typed), titleStems(title));
    expect(match("dark mo", "Dark mode")).toEqual({ held: 2, similarity: 1 });
    expect(match("dark mo", "Darker charts in reports")).toEqual({ held: 0, similarity: 0 });
    expect(match("dark", "Darker charts in reports")).toEqual({ held: 1, similarity: 0.5 });
    // Every word held by a long title, against most of them by a short one.
    expect(match("dark mode for the editor", "Editor dark mode with a schedule and high contrast")).toEqual({ held: 3, similarity: 0.67 });
    expect(match("dark mode for the editor", "Dark mode")).toEqual({ held: 2, similarity: 0.8 });
    expect(match("", "Dark mode")).toEqual({ held: 0, similarity: 0 });
  });
});
