import { LOCALES, enMessages, type Locale } from "@tidings/client";
import { catalogs as sdkCatalogs } from "@tidings/client/locales";
import { describe, expect, it } from "vitest";
import { enStrings, type StringId } from "../i18n/en.js";
import type { LocalePack, UiMessage } from "../i18n/locale-pack.js";
import { createTranslator } from "../i18n/translate.js";
import { allLocales } from "./all.js";
import * as packs from "./index.js";

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

const packOf = (locale: Locale): LocalePack => {
  const pack = allLocales.find((p) => p.locale === locale);
  if (pack === undefined) throw new Error(`no pack for ${locale}`);
  return pack;
};

describe("locale packs", () => {
  it("has one pack for every locale of the spec, each also a module of its own", () => {
    expect(allLocales.map((pack) => pack.locale).sort()).toEqual([...LOCALES].sort());
    const exported = Object.entries(packs).flatMap(([name, pack]) => (name === "allLocales" ? [] : [pack]));
    expect(exported).toHaveLength(allLocales.length);
    for (const pack of allLocales) expect(exported).toContain(pack);
  });

  it.each(LOCALES)("%s is the subpath module its lower-case code names", async (locale) => {
    // The path the docs and the missing-pack warning tell an app to import.
    const module = (await import(`@tidings/react-core/locales/${locale.toLowerCase()}`)) as Record<string, unknown>;
    expect(Object.values(module)).toEqual([packOf(locale)]);
  });

  describe.each(LOCALES.filter((l) => l !== "en"))("%s", (locale) => {
    const catalog = packOf(locale).strings;

    it("carries the SDK's messages of its language", () => {
      expect(packOf(locale).messages).toBe(sdkCatalogs[locale]);
      expect(Object.keys(packOf(locale).messages).sort()).toEqual(Object.keys(enMessages).sort());
    });

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
    const pl = createTranslator(packs.pl);
    expect([1, 2, 5, 22].map((count) => pl("vote.votes", { count }))).toEqual(["1 głos", "2 głosy", "5 głosów", "22 głosy"]);
    expect(createTranslator(packs.ja)("requests.comments", { count: 3 })).toBe("3 件のコメント");
    expect(createTranslator(packs.zhHant)("portal.requests")).toBe("功能建議");
    expect(createTranslator(packs.pl)("error.rateLimited", { count: 5 })).toMatch(/5 sekund\./);
  });

  it("catches a missing key and an English copy", () => {
    // The checks above, applied to a broken catalog, must complain.
    const broken = { ...packs.it.strings };
    delete broken["feedback.sent"];
    broken["feedback.submit"] = enStrings["feedback.submit"];
    expect(ids.filter((id) => broken[id] === undefined)).toEqual(["feedback.sent"]);
    expect(ids.filter((id) => !SAME_EVERYWHERE.has(id) && JSON.stringify(broken[id]) === JSON.stringify(enStrings[id]))).toContain("feedback.submit");
  });
});
