import { TidingsProvider as CoreProvider, type TidingsProviderProps as CoreProps } from "@tidings/react-core";
import { useMemo } from "react";
import { deviceLanguages } from "./device-locales.js";

/** Props of the React Native {@link TidingsProvider}: the shared provider's, with the device's languages found for you. */
export type TidingsProviderProps = CoreProps;

/**
 * The shared provider (config, token store, strings, theme, surface gates) with `locale="auto"`
 * following the device language (expo-localization, react-native-localize, then `Intl`).
 * Create the client with a storage adapter so the user token and seen releases survive restarts
 * (see the README's recipes); without one they live in memory and a development warning says so.
 *
 * @example
 * ```tsx
 * const client = new FeedbackClient({ baseUrl, appKey, storage: asyncStorageAdapter, defaultPlatform: runtimePlatform() });
 * <TidingsProvider client={client}><FeatureRequestsScreen /></TidingsProvider>
 * ```
 */
export function TidingsProvider(props: TidingsProviderProps) {
  const detected = useMemo(() => props.deviceLocales ?? deviceLanguages(), [props.deviceLocales]);
  return <CoreProvider {...props} deviceLocales={detected} />;
}
