import type { ErrorMessageId } from "./errors.js";
import { FeedbackException, RateLimitedException } from "./errors.js";
import type { Locale } from "./locale.js";

/** A message with plural forms, chosen by `Intl.PluralRules`; `{count}` is replaced by the number. */
export type PluralMessage = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** Every id the SDK's own messages use: the errors', and the notice of a submission the outbox keeps. */
export type MessageId = ErrorMessageId | "outbox.queued";

/** One locale's messages. */
export type MessageCatalog = Record<MessageId, string | PluralMessage>;

/** English defaults; each other locale is a module of its own (`deMessages` in `@tidings/client/locales/de`), all of them `@tidings/client/locales`. */
export const enMessages: MessageCatalog = {
  "error.verificationRequired": "Please complete the human verification and try again.",
  "error.quotaExceeded": "This app has reached its monthly submission limit. Please try again later.",
  "error.subscriptionInactive": "Submissions to this app are paused right now.",
  "error.paymentRequired": "This action is not available on the app's current plan.",
  "error.authenticationRequired": "Please sign in to continue.",
  "error.rateLimited": {
    one: "Too many requests. Please try again in {count} second.",
    other: "Too many requests. Please try again in {count} seconds.",
  },
  "error.timeout": "The request took too long. Check your connection and try again.",
  "error.network": "Could not reach the server. Check your connection and try again.",
  "error.aborted": "The request was canceled.",
  "error.unexpected": "Something went wrong. Please try again.",
  "error.unsupportedAttachment": "This file cannot be attached.",
  "outbox.queued": "Saved on this device. It will be sent when the connection is back.",
};

/**
 * Formats message `id` of `catalog` (English when missing) for `locale`, choosing the plural form
 * of `count` with `Intl.PluralRules`.
 *
 * @example
 * ```ts
 * formatMessage("fr", frMessages, "error.rateLimited", { count: 30 });
 * ```
 */
export function formatMessage(
  locale: Locale,
  catalog: Partial<MessageCatalog> | undefined,
  id: MessageId,
  params: { count?: number } = {},
): string {
  const message = catalog?.[id] ?? enMessages[id];
  if (typeof message === "string") return message;
  const count = params.count ?? 0;
  let form: string;
  try {
    form = message[new Intl.PluralRules(locale).select(count)] ?? message.other;
  } catch {
    form = message.other;
  }
  let shown: string;
  try {
    shown = new Intl.NumberFormat(locale).format(count);
  } catch {
    shown = String(count);
  }
  return form.replace(/\{count\}/g, shown);
}

/**
 * The localized text a composer shows for an error the SDK threw (rule 11: with the draft kept).
 *
 * @example
 * ```ts
 * setNotice(userFacingErrorMessage(error, "de", deMessages));
 * ```
 */
export function userFacingErrorMessage(error: unknown, locale: Locale = "en", catalog?: Partial<MessageCatalog>): string {
  if (!(error instanceof FeedbackException)) return formatMessage(locale, catalog, "error.unexpected");
  const count = error instanceof RateLimitedException ? Math.max(1, Math.ceil((error.retryAfterMs ?? 60_000) / 1000)) : undefined;
  return formatMessage(locale, catalog, error.messageId, count === undefined ? {} : { count });
}
