import type { ConfigState, FeedbackClient, Locale, Outbox, PublicAppConfig, Surface, ThemeName } from "@tidings/client";
import { createContext, useContext } from "react";
import type { Translate } from "./i18n/translate.js";

/** What {@link TidingsProvider} gives every hook and screen below it. */
export interface TidingsContextValue {
  client: FeedbackClient;
  /** The loaded config; null while loading and after a failure (rule 5: fail closed). */
  config: PublicAppConfig | null;
  configStatus: ConfigState["status"];
  /** The error of the last config load, once the retry failed too; undefined otherwise. */
  configError: unknown;
  /** Fetches the config again; clears `configError` on success. */
  refreshConfig: () => Promise<void>;
  /** True once the config load finished, with or without success (surfaces then know their flags). */
  configSettled: boolean;
  /** Theme in force: the `theme` prop, else the config's, else `system`. */
  theme: ThemeName;
  /** The locale the screens speak: the provider's setting among the languages it has packs for. */
  locale: Locale;
  /** The languages the provider has packs for, English first: what a language picker offers. */
  locales: readonly Locale[];
  t: Translate;
  /** Localized text for an error the SDK threw. */
  errorMessage: (error: unknown) => string;
  /** The user token in force (the explicit prop wins over the store); null until read. */
  userToken: string | null;
  /** The signed-in user's address the host gave (`userEmail`); undefined when it gave none. */
  userEmail: string | undefined;
  /** Rule 6 gate of a surface. */
  isEnabled: (surface: Surface) => boolean;
  /** Keeps submissions made without a connection and sends them later; undefined when the host gave none. */
  outbox: Outbox | undefined;
}

export const TidingsContext = createContext<TidingsContextValue | null>(null);

/**
 * Everything the provider knows. Throws when no {@link TidingsProvider} is above the caller.
 *
 * @example
 * ```tsx
 * const { client, t } = useTidings();
 * ```
 */
export function useTidings(): TidingsContextValue {
  const value = useContext(TidingsContext);
  if (value === null) {
    throw new Error("useTidings() was called outside <TidingsProvider>: wrap your screens in <TidingsProvider client={…}>.");
  }
  return value;
}
