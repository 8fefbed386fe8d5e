import { useTidings, type FeedbackComposerState } from "@tidings/react-core";
import { Pressable, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/** The localized error of the last submission or pick; the draft above it stays as it was (rule 11). */
export function ErrorNotice(props: { composer: FeedbackComposerState }) {
  const palette = usePalette();
  const message = props.composer.error ?? props.composer.pickError;
  if (message === undefined) return null;
  return (
    <View accessibilityRole="alert" accessibilityLiveRegion="polite" style={{ padding: 12, borderRadius: 10, borderWidth: 1, borderColor: palette.dangerBorder, backgroundColor: palette.dangerBg }}>
      <Text style={{ color: palette.danger, fontSize: 16 }}>{message}</Text>
    </View>
  );
}

/** The outcome of a submission: sent (with its reference) or kept by the outbox for later (without one yet). */
export function Sent(props: { submissionId?: string | undefined; onAnother: () => void }) {
  const { t } = useTidings();
  const palette = usePalette();
  return (
    <View accessibilityLiveRegion="polite" style={{ padding: 16, gap: 12 }}>
      <Text accessibilityRole="header" style={{ color: palette.success, fontSize: 18, fontWeight: "600" }}>
        {props.submissionId === undefined ? t("outbox.queued") : t("feedback.sent")}
      </Text>
      {props.submissionId === undefined ? null : (
        <Text selectable style={{ color: palette.text2, fontSize: 16 }}>
          {t("feedback.reference", { id: props.submissionId })}
        </Text>
      )}
      <Pressable
        accessibilityRole="button"
        accessibilityLabel={t("feedback.sendAnother")}
        onPress={props.onAnother}
        style={{ minHeight: MIN_TOUCH, alignSelf: "flex-start", justifyContent: "center", paddingHorizontal: 16, borderRadius: 8, borderWidth: 1, borderColor: palette.border, backgroundColor: palette.card }}
      >
        <Text style={{ color: palette.text, fontSize: 16 }}>{t("feedback.sendAnother")}</Text>
      </Pressable>
    </View>
  );
}
