import type { UploadRequest } from "@tidings/client";
import { useTidings, type ComposerAttachment, type FeedbackComposerState } from "@tidings/react-core";
import { ActivityIndicator, Image, Pressable, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/** One attached item: a thumbnail for images, its name, upload progress or error, and a remove button. */
function AttachmentRow(props: { attachment: ComposerAttachment; onRemove: () => void }) {
  const { t } = useTidings();
  const palette = usePalette();
  const a = props.attachment;
  return (
    <View style={{ flexDirection: "row", alignItems: "center", gap: 10, paddingVertical: 6, borderBottomWidth: 1, borderBottomColor: palette.divider }}>
      {a.uri !== undefined && a.isImage ? (
        <Image testID="tidings-attachment-thumbnail" source={{ uri: a.uri }} accessibilityIgnoresInvertColors style={{ width: MIN_TOUCH, height: MIN_TOUCH, borderRadius: 6, backgroundColor: palette.chipBg }} />
      ) : (
        <View importantForAccessibility="no-hide-descendants" accessibilityElementsHidden style={{ width: MIN_TOUCH, height: MIN_TOUCH, alignItems: "center", justifyContent: "center", borderRadius: 6, backgroundColor: palette.chipBg }}>
          <Text style={{ fontSize: 20 }}>📄</Text>
        </View>
      )}
      <View style={{ flex: 1, gap: 2 }}>
        <Text numberOfLines={1} style={{ color: palette.text, fontSize: 16 }}>
          {a.name}
        </Text>
        {a.status === "error" ? (
          <Text accessibilityRole="alert" accessibilityLiveRegion="polite" style={{ color: palette.danger, fontSize: 14 }}>
            {a.error}
          </Text>
        ) : null}
      </View>
      {a.status === "uploading" ? (
        <ActivityIndicator accessibilityLabel={t("feedback.uploading", { name: a.name })} color={palette.primary} />
      ) : a.status === "ready" ? (
        <Text accessibilityLabel={t("feedback.uploaded", { name: a.name })} style={{ color: palette.success, fontSize: 18 }}>
          ✓
        </Text>
      ) : null}
      <Pressable
        accessibilityRole="button"
        accessibilityLabel={t("feedback.remove", { name: a.name })}
        onPress={props.onRemove}
        hitSlop={4}
        style={{ minWidth: MIN_TOUCH, minHeight: MIN_TOUCH, alignItems: "center", justifyContent: "center" }}
      >
        <Text style={{ color: palette.muted, fontSize: 22 }}>×</Text>
      </Pressable>
    </View>
  );
}

/** A secondary action of the attachments step. */
function StepButton(props: { label: string; onPress: () => void; disabled: boolean }) {
  const palette = usePalette();
  return (
    <Pressable
      accessibilityRole="button"
      accessibilityLabel={props.label}
      accessibilityState={{ disabled: props.disabled }}
      disabled={props.disabled}
      onPress={props.onPress}
      style={{ minHeight: MIN_TOUCH, justifyContent: "center", paddingHorizontal: 14, borderRadius: 8, borderWidth: 1, borderColor: palette.border, backgroundColor: palette.card, opacity: props.disabled ? 0.5 : 1 }}
    >
      <Text style={{ color: palette.text, fontSize: 16 }}>{props.label}</Text>
    </Pressable>
  );
}

/** The attachments step: why to add one, the actions the host gave, and each attached item with its progress. */
/** What the composer's `pickAttachment` and `captureScreenshot` props hand this step. */
export interface AttachmentsStepProps {
  composer: FeedbackComposerState;
  pick: (() => Promise<unknown> | unknown) | undefined;
  capture: (() => Promise<UploadRequest | null>) | undefined;
}

export function AttachmentsStep(props: AttachmentsStepProps) {
  const { t } = useTidings();
  const palette = usePalette();
  const { composer, pick, capture } = props;
  return (
    <View style={{ gap: 6 }}>
      <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 16, fontWeight: "600" }}>
        {t("feedback.attachments")}
      </Text>
      <Text style={{ color: palette.text2, fontSize: 14 }}>{t("feedback.attachHint")}</Text>
      {composer.attachments.map((a) => (
        <AttachmentRow key={a.id} attachment={a} onRemove={() => composer.removeAttachment(a.id)} />
      ))}
      <View style={{ flexDirection: "row", flexWrap: "wrap", gap: 8 }}>
        {capture === undefined ? null : <StepButton label={t("feedback.screenshot")} disabled={composer.picking} onPress={() => void composer.attach(capture)} />}
        {pick === undefined ? null : <StepButton label={t("feedback.attach")} disabled={composer.picking} onPress={() => void composer.attach(pick)} />}
      </View>
    </View>
  );
}
