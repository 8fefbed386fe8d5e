import { useTidings } from "@tidings/react-core";
import { ActivityIndicator, Pressable, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/**
 * Rule 6's unavailable state of a disabled surface.
 *
 * @example
 * ```tsx
 * if (!isEnabled("roadmap")) return <Unavailable />;
 * ```
 */
export function Unavailable(props: { message?: string }) {
  const { t } = useTidings();
  const palette = usePalette();
  return (
    <View accessible accessibilityRole="summary" style={{ padding: 16, margin: 12, borderWidth: 1, borderStyle: "dashed", borderColor: palette.border, borderRadius: 10 }}>
      <Text style={{ color: palette.muted, fontSize: 16 }}>{props.message ?? t("common.unavailable")}</Text>
    </View>
  );
}

/**
 * A localized error with an optional retry button.
 *
 * @example
 * ```tsx
 * <ErrorState message={list.error} onRetry={list.refresh} />
 * ```
 */
export function ErrorState(props: { message: string; onRetry?: (() => void) | undefined }) {
  const { t } = useTidings();
  const palette = usePalette();
  return (
    // The message is the alert (announced when it appears); the retry button stays its own control.
    <View style={{ padding: 16, margin: 12, borderRadius: 10, borderWidth: 1, borderColor: palette.dangerBorder, backgroundColor: palette.dangerBg, gap: 8 }}>
      <Text accessibilityRole="alert" accessibilityLiveRegion="polite" style={{ color: palette.danger, fontSize: 16 }}>
        {props.message}
      </Text>
      {props.onRetry === undefined ? null : (
        <Pressable
          accessibilityRole="button"
          accessibilityLabel={t("common.retry")}
          onPress={props.onRetry}
          style={{ minHeight: MIN_TOUCH, minWidth: MIN_TOUCH, alignSelf: "flex-start", justifyContent: "center", paddingHorizontal: 14, borderRadius: 8, borderWidth: 1, borderColor: palette.border, backgroundColor: palette.card }}
        >
          <Text style={{ color: palette.text, fontSize: 16 }}>{t("common.retry")}</Text>
        </Pressable>
      )}
    </View>
  );
}

/**
 * A spinner with the localized "Loading…" text.
 *
 * @example
 * ```tsx
 * if (status === "loading") return <Loading />;
 * ```
 */
export function Loading() {
  const { t } = useTidings();
  const palette = usePalette();
  return (
    <View accessibilityRole="progressbar" accessibilityLabel={t("common.loading")} style={{ flexDirection: "row", alignItems: "center", gap: 8, padding: 16 }}>
      <ActivityIndicator color={palette.primary} />
      <Text style={{ color: palette.muted, fontSize: 16 }}>{t("common.loading")}</Text>
    </View>
  );
}
