import { describe, expect, it } from "vitest";
import { titleSimilarity, titleStems } from "./title-similarity.js";

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
});
