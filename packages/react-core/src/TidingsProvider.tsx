import {
  ConfigLoader,
  deviceLocales,
  isSurfaceEnabled,
  matchLocale,
  resolveLocale,
  type ConfigState,
  type FeedbackClient,
  type Locale,
  type LocaleSetting,
  type Outbox,
  type ThemeName,
} from "@tidings/client";
import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { TidingsContext, type TidingsContextValue } from "./context.js";
import { availableLocales, packFor, warnMissingPack, type LocalePack } from "./i18n/locale-pack.js";
import { createTranslator, errorText, type StringOverrides } from "./i18n/translate.js";

/** Props of {@link TidingsProvider}. */
export interface TidingsProviderProps {
  client: FeedbackClient;
  /** An explicit user token; it always wins over the token store (rule 9). @default the store's token */
  userToken?: string | undefined;
  /**
   * The signed-in user's email address, when the host knows it (e.g. the `email` of its SSO
   * token). "Get updates on this request" then follows with it instead of asking for one; an SSO
   * token carrying the same address follows at once, any other address is confirmed by mail first.
   * @default undefined (the control asks for an address)
   */
  userEmail?: string | undefined;
  /**
   * `auto` (the first device language among English and the `locales` packs, else English) or a
   * locale tag; an explicit locale wins. A locale whose pack is not in `locales` shows English, with
   * one development warning.
   * @default "auto"
   */
  locale?: LocaleSetting | undefined;
  /**
   * The languages besides English the app offers, one pack each
   * (`import { de } from "@tidings/react-core/locales/de"`), or every one
   * (`allLocales` from `@tidings/react-core/locales`). Only the packs imported end up in the bundle.
   * @default [] (English only)
   */
  locales?: readonly LocalePack[] | undefined;
  /** Overrides of UI strings and SDK error messages by id. @default {} */
  strings?: StringOverrides | undefined;
  /** Theme; wins over the config's `sdk.theme`. @default the config's theme, else "system" */
  theme?: ThemeName | undefined;
  /**
   * The device's preferred languages, best first, for `locale="auto"` where the runtime's own
   * (`navigator.languages`, `Intl`) are not the device's, as in React Native.
   * @default `navigator.languages`, then `Intl`'s locale
   */
  deviceLocales?: readonly string[] | undefined;
  /**
   * Keeps feedback and proposals made without a connection and sends them when it is back: the
   * composers then show `outbox.queued` instead of an error. The host starts it and calls
   * `flush()` when the app returns to the foreground or the network is back.
   * @default undefined (a submission without a connection fails with its error)
   */
  outbox?: Outbox | undefined;
  /** Delay before the one config retry, in ms. @default 2000 */
  configRetryDelayMs?: number | undefined;
  children?: ReactNode;
}

const ENGLISH_ONLY: readonly LocalePack[] = [];

const blank = (value: string | undefined): value is undefined => value === undefined || value.trim() === "";

/**
 * Loads the app config once per client (rule 5: one retry after 2 s, then `configError` and
 * `refreshConfig`), follows the token store (rule 9) and gives screens the locale, strings,
 * theme and surface gates (rule 6). Renders no DOM itself.
 *
 * @example
 * ```tsx
 * import { de } from "@tidings/react-core/locales/de";
 * import { fr } from "@tidings/react-core/locales/fr";
 *
 * <TidingsProvider client={client} locale="auto" locales={[de, fr]}>
 *   <FeatureRequestList />
 * </TidingsProvider>
 * ```
 */
export function TidingsProvider(props: TidingsProviderProps) {
  const { client, userToken: explicitToken, locale: localeSetting = "auto", strings, theme: themeProp, configRetryDelayMs, outbox } = props;
  const [configState, setConfigState] = useState<ConfigState>({ status: "loading", config: null, error: undefined, theme: "system" });
  const [loader, setLoader] = useState<ConfigLoader | null>(null);

  useEffect(() => {
    const next = new ConfigLoader((signal) => client.getConfig({ signal }), { retryDelayMs: configRetryDelayMs, timers: client.timers });
    next.subscribe(setConfigState);
    setLoader(next);
    void next.start();
    return () => next.dispose();
  }, [client, configRetryDelayMs]);

  const [storeToken, setStoreToken] = useState<string | null>(() => client.tokens.token);
  useEffect(() => {
    let live = true;
    const unsubscribe = client.tokens.subscribe((token) => setStoreToken(token));
    // A token that cannot be minted (no secure random source) is the screens' error: each call
    // that needs it rejects with the message naming the polyfill. Here it would be unhandled.
    client.tokens.getToken().then(
      (token) => {
        if (live) setStoreToken(token);
      },
      () => undefined,
    );
    return () => {
      live = false;
      unsubscribe();
    };
  }, [client]);

  const refreshConfig = useCallback(() => loader?.refresh() ?? Promise.resolve(), [loader]);
  const packs = props.locales ?? ENGLISH_ONLY;
  // Keyed by the languages, not the array: an inline `locales={[de, fr]}` is new on every render.
  const offeredKey = availableLocales(packs).join(",");
  const offered = useMemo(() => offeredKey.split(",") as Locale[], [offeredKey]);
  const locale = resolveLocale(localeSetting, props.deviceLocales ?? deviceLocales(), offered);
  const pack = packFor(locale, packs);
  const requested = localeSetting === "auto" ? undefined : matchLocale(localeSetting);
  useEffect(() => {
    if (requested !== undefined && requested !== locale) warnMissingPack(client, requested);
  }, [client, requested, locale]);
  const userToken = blank(explicitToken) ? storeToken : explicitToken.trim();
  const userEmail = blank(props.userEmail) ? undefined : props.userEmail.trim();
  const value = useMemo<TidingsContextValue>(() => {
    const overrides = strings ?? {};
    const config = configState.config;
    return {
      client,
      config,
      configStatus: configState.status,
      configError: configState.status === "error" ? configState.error : undefined,
      configSettled: configState.status === "ready" || configState.status === "error",
      refreshConfig,
      theme: themeProp ?? configState.theme,
      locale,
      locales: offered,
      t: createTranslator(pack, overrides),
      errorMessage: (error) => errorText(pack, overrides, error),
      userToken,
      userEmail,
      isEnabled: (surface) => isSurfaceEnabled(config, surface),
      outbox,
    };
  }, [client, configState, refreshConfig, themeProp, pack, offered, strings, userToken, userEmail, outbox]);

  return <TidingsContext.Provider value={value}>{props.children}</TidingsContext.Provider>;
}
