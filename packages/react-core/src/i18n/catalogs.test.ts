import { LOCALES, type Locale } from "@tidings/client";
import { describe, expect, it } from "vitest";
import { uiCatalogs } from "./catalogs.js";
import { enStrings, type StringId } from "./en.js";
import { createTranslator, type UiMessage } from "./translate.js";

/** Strings that stay English in every locale: product names and the version badge. */
const SAME_EVERYWHERE: ReadonlySet<StringId> = new Set(["platform.ios", "platform.macos", "platform.android", "changelog.version"]);

/** Words that are the same in the locale's own language (checked by a speaker, not copied). */
const SAME_IN_LOCALE: Partial<Record<Locale, readonly StringId[]>> = {
  fr: ["portal.tabs", "platform.web", "requests.version", "vote.votes"],
  de: ["portal.feedback", "platform.web", "detail.team", "roadmap.title", "portal.roadmap", "theme.system", "requests.version", "compose.details", "feedback.details"],
  es: ["platform.web"],
  it: ["portal.roadmap", "roadmap.title", "platform.web", "detail.team"],
  pt: ["platform.web"],
  pl: ["theme.ocean"],
  no: ["feedback.submit"],
  tr: ["platform.web", "feedback.platform"],
};

/** Plural categories a locale may leave to `other` (French "1 000 000 de votes" and the like). */
const OPTIONAL_CATEGORIES: ReadonlySet<Intl.LDMLPluralRule> = new Set(["many", "zero", "two"]);

const ids = Object.keys(enStrings) as StringId[];
const placeholders = (message: UiMessage): string[] =>
  [...new Set((typeof message === "string" ? message : Object.values(message).join(" ")).match(/\{\w+\}/g) ?? [])].sort();

describe("UI catalogs", () => {
  it("has a catalog for every locale of the spec", () => {
    expect(Object.keys(uiCatalogs).sort()).toEqual([...LOCALES].sort());
  });

  describe.each(LOCALES.filter((l) => l !== "en"))("%s", (locale) => {
    const catalog = uiCatalogs[locale];

    it("translates every id and nothing else", () => {
      // Product names may be left out: English is the fallback and the same text.
      const missing = ids.filter((id) => catalog[id] === undefined && !SAME_EVERYWHERE.has(id));
      const extra = Object.keys(catalog).filter((id) => !(id in enStrings));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it("does not copy the English text", () => {
      const allowed = new Set<StringId>([...SAME_EVERYWHERE, ...(SAME_IN_LOCALE[locale] ?? [])]);
      const copied = ids.filter((id) => !allowed.has(id) && JSON.stringify(catalog[id]) === JSON.stringify(enStrings[id]));
      expect(copied).toEqual([]);
    });

    it("keeps the placeholders and the plural shape of each message", () => {
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.filter((c) => !OPTIONAL_CATEGORIES.has(c));
      for (const id of ids) {
        const message = catalog[id];
        if (message === undefined) continue;
        const english = enStrings[id];
        expect(typeof message, id).toBe(typeof english);
        expect(placeholders(message), id).toEqual(placeholders(english));
        if (typeof message !== "string") expect(Object.keys(message).sort(), id).toEqual(expect.arrayContaining(categories));
      }
    });
  });

  it("picks the locale's plural forms", () => {
    const pl = createTranslator("pl");
    expect([1, 2, 5, 22].map((count) => pl("vote.votes", { count }))).toEqual(["1 głos", "2 głosy", "5 głosów", "22 głosy"]);
    expect(createTranslator("ja")("requests.comments", { count: 3 })).toBe("3 件のコメント");
    expect(createTranslator("zh-Hant")("portal.requests")).toBe("功能建議");
  });

  it("catches a missing key and an English copy", () => {
    // The checks above, applied to a broken catalog, must complain.
    const broken = { ...uiCatalogs.it };
    delete broken["feedback.sent"];
    broken["feedback.submit"] = enStrings["feedback.submit"];
    expect(ids.filter((id) => broken[id] === undefined)).toEqual(["feedback.sent"]);
    expect(ids.filter((id) => !SAME_EVERYWHERE.has(id) && JSON.stringify(broken[id]) === JSON.stringify(enStrings[id]))).toContain("feedback.submit");
  });
});
