import { enMessages, formatMessage, userFacingErrorMessage, type Locale, type MessageCatalog, type MessageId, type PluralMessage } from "@tidings/client";
import { enStrings, type StringId } from "./en.js";
import { english, type LocalePack, type UiMessage } from "./locale-pack.js";

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
 * A translator for `pack`'s language: overrides, then the pack's strings, then English; plural
 * forms are chosen with `Intl.PluralRules`. SDK message ids read the pack's SDK messages the same
 * way. Without a pack it speaks English.
 *
 * @example
 * ```ts
 * import { fr } from "@tidings/react-core/locales/fr";
 * const t = createTranslator(fr);
 * t("vote.votes", { count: 2 }); // "2 votes"
 * ```
 */
export function createTranslator(pack: LocalePack = english, overrides: StringOverrides = {}): Translate {
  const { locale, strings, messages } = pack;
  return (id, params = {}) => {
    const message = overrides[id] ?? (isUiString(id) ? (strings[id] ?? enStrings[id]) : (messages[id] ?? enMessages[id]));
    const text = typeof message === "string" ? message : pluralForm(locale, message, Number(params.count ?? 0));
    return fill(locale, text, params);
  };
}

/**
 * The localized text for an error the SDK threw, in `pack`'s language, honouring the host's
 * overrides of SDK error ids.
 *
 * @example
 * ```ts
 * errorText(de, {}, error); // "Bitte schließe die Verifizierung ab und versuche es erneut."
 * ```
 */
export function errorText(pack: LocalePack, overrides: StringOverrides, error: unknown): string {
  const merged: Partial<MessageCatalog> = { ...enMessages, ...pack.messages };
  for (const id of Object.keys(enMessages) as MessageId[]) {
    const override = overrides[id];
    if (override !== undefined) merged[id] = override;
  }
  return userFacingErrorMessage(error, pack.locale, merged);
}

export { formatMessage };
