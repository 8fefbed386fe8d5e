import { enMessages, formatMessage, userFacingErrorMessage, type Locale, type MessageCatalog, type MessageId, type PluralMessage } from "@tidings/client";
import { catalogs as sdkCatalogs } from "@tidings/client/locales";
import { enStrings, type StringId } from "./en.js";
import { uiCatalogs } from "./catalogs.js";

/** A UI message: plain text or plural forms (`{count}` is the number). */
export type UiMessage = string | PluralMessage;

/** One locale's UI strings; missing ids fall back to English. */
export type UiCatalog = Partial<Record<StringId, UiMessage>>;

/** Strings a host overrides, UI ids and SDK error ids alike (e.g. `{"feedback.submit": "Report"}`). */
export type StringOverrides = Partial<Record<StringId | MessageId, UiMessage>>;

/** Parameters substituted into `{name}` placeholders; `count` also picks the plural form. */
export type MessageParams = Record<string, string | number>;

/** Looks up and formats a UI string, or one of the SDK's own messages (such as `outbox.queued`). */
export type Translate = (id: StringId | MessageId, params?: MessageParams) => string;

function pluralForm(locale: Locale, message: PluralMessage, count: number): string {
  try {
    return message[new Intl.PluralRules(locale).select(count)] ?? message.other;
  } catch {
    return message.other;
  }
}

function fill(locale: Locale, text: string, params: MessageParams): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = params[key];
    if (value === undefined) return whole;
    if (typeof value === "number") {
      try {
        return new Intl.NumberFormat(locale).format(value);
      } catch {
        return String(value);
      }
    }
    return value;
  });
}

const isUiString = (id: StringId | MessageId): id is StringId => Object.hasOwn(enStrings, id);

/**
 * A translator for `locale`: overrides, then the locale's catalog, then English; plural forms are
 * chosen with `Intl.PluralRules`. SDK message ids read the SDK's catalogs the same way.
 *
 * @example
 * ```ts
 * const t = createTranslator("fr");
 * t("vote.votes", { count: 2 }); // "2 votes"
 * ```
 */
export function createTranslator(locale: Locale, overrides: StringOverrides = {}): Translate {
  const catalog = uiCatalogs[locale];
  return (id, params = {}) => {
    const message = overrides[id] ?? (isUiString(id) ? (catalog?.[id] ?? enStrings[id]) : (sdkCatalogs[locale][id] ?? enMessages[id]));
    const text = typeof message === "string" ? message : pluralForm(locale, message, Number(params.count ?? 0));
    return fill(locale, text, params);
  };
}

/**
 * The localized text for an error the SDK threw, honouring the host's overrides of SDK error ids.
 *
 * @example
 * ```ts
 * errorText("de", sdkCatalog, {}, error); // "Bitte führe die Verifizierung durch …"
 * ```
 */
export function errorText(locale: Locale, sdkCatalog: MessageCatalog | undefined, overrides: StringOverrides, error: unknown): string {
  const merged: Partial<MessageCatalog> = { ...enMessages, ...sdkCatalog };
  for (const id of Object.keys(enMessages) as MessageId[]) {
    const override = overrides[id];
    if (override !== undefined) merged[id] = override;
  }
  return userFacingErrorMessage(error, locale, merged);
}

export { formatMessage };
