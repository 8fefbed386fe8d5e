import { describe, expect, it } from "vitest";
import { RateLimitedException, VerificationRequiredException } from "./errors.js";
import { LOCALES, matchLocale, resolveLocale } from "./locale.js";
import { catalogs, deMessages, getMessages, plMessages } from "./locales/index.js";
import { enMessages, formatMessage, userFacingErrorMessage } from "./messages.js";

describe("resolveLocale", () => {
  it("resolves regional variants to the base locale", () => {
    expect(matchLocale("pt-BR")).toBe("pt");
    expect(matchLocale("zh-Hans-CN")).toBe("zh-Hans");
    expect(matchLocale("zh-CN")).toBe("zh-Hans");
    expect(matchLocale("zh-TW")).toBe("zh-Hant");
    expect(matchLocale("zh-Hant-HK")).toBe("zh-Hant");
    expect(matchLocale("nb-NO")).toBe("no");
    expect(matchLocale("ja_JP")).toBe("ja");
    expect(matchLocale("ko-KR")).toBe("ko");
    expect(matchLocale("vi-VN")).toBe("vi");
    expect(matchLocale("sv-SE")).toBeUndefined();
  });

  it("uses the first supported device language for auto, else English", () => {
    expect(resolveLocale("auto", ["sv-SE", "de-AT", "fr"])).toBe("de");
    expect(resolveLocale("auto", ["sv-SE"])).toBe("en");
    expect(resolveLocale("auto", [])).toBe("en");
  });

  it("lets an explicit locale win over the device", () => {
    expect(resolveLocale("ja", ["de-DE"])).toBe("ja");
    expect(resolveLocale("pt-BR", ["de-DE"])).toBe("pt");
  });

  it("chooses among English and the available locales only", () => {
    expect(resolveLocale("auto", ["de-AT", "fr-CA"], ["en", "fr"])).toBe("fr");
    expect(resolveLocale("auto", ["de-AT", "en-GB", "fr-CA"], ["fr"])).toBe("en");
    expect(resolveLocale("auto", ["de-AT"], [])).toBe("en");
    expect(resolveLocale("de-AT", ["fr-CA"], ["fr"])).toBe("en");
    expect(resolveLocale("zh-TW", [], ["zh-Hant"])).toBe("zh-Hant");
  });
});

describe("message catalogs", () => {
  it("exist for all 14 locales and translate every id (no English copies)", () => {
    expect(Object.keys(catalogs).sort()).toEqual([...LOCALES].sort());
    const ids = Object.keys(enMessages).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(catalogs[locale]).sort(), locale).toEqual(ids);
      if (locale === "en") continue;
      for (const id of ids) {
        const message = catalogs[locale][id as keyof typeof enMessages];
        expect(JSON.stringify(message), `${locale} ${id}`).not.toBe(JSON.stringify(enMessages[id as keyof typeof enMessages]));
      }
    }
  });

  it("chooses plural forms with Intl.PluralRules", () => {
    expect(formatMessage("en", enMessages, "error.rateLimited", { count: 1 })).toBe("Too many requests. Please try again in 1 second.");
    expect(formatMessage("en", enMessages, "error.rateLimited", { count: 30 })).toBe("Too many requests. Please try again in 30 seconds.");
    expect(formatMessage("pl", plMessages, "error.rateLimited", { count: 3 })).toMatch(/3 sekundy/);
    expect(formatMessage("pl", plMessages, "error.rateLimited", { count: 5 })).toMatch(/5 sekund\./);
  });

  it("localizes SDK errors, with overrides per message", () => {
    const error = new VerificationRequiredException("Human verification is required", { status: 403 });
    expect(userFacingErrorMessage(error, "de", deMessages)).toBe(deMessages["error.verificationRequired"]);
    expect(userFacingErrorMessage(error, "de", getMessages("de", { "error.verificationRequired": "Bitte bestätigen." }))).toBe("Bitte bestätigen.");
    const limited = new RateLimitedException("x", { status: 429, retryAfterMs: 1500 });
    expect(userFacingErrorMessage(limited)).toBe("Too many requests. Please try again in 2 seconds.");
    expect(userFacingErrorMessage(new Error("boom"))).toBe(enMessages["error.unexpected"]);
  });
});
