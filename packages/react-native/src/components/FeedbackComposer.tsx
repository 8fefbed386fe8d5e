import type { Platform, UploadRequest } from "@tidings/client";
import { useFeedbackComposer, useTidings, type FeedbackComposerState } from "@tidings/react-core";
import { ActivityIndicator, Pressable, ScrollView, Text, TextInput, View } from "react-native";
import { runtimePlatform } from "../runtime-platform.js";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { AttachmentsStep } from "./AttachmentsStep.js";
import { CustomFieldInputs } from "./CustomFieldInputs.js";
import { Screen } from "./Screen.js";
import { Unavailable } from "./States.js";

/** Props of {@link FeedbackComposer}. */
export interface FeedbackComposerProps {
  /**
   * The host's attachment picker (spec rule 10). Resolve with one value or a list of them:
   * - an uploaded descriptor `{kind, key, url, …}`, attached as is;
   * - an upload request `{file, filename, mimeType}` where `file` is a React Native file part
   *   `{uri, name, type}` (or a `file://` / `content://` URI string), uploaded at once;
   * - the legacy `{fileUri, filename?, mimeType?}`, uploaded at once;
   * - `null` or `undefined` when the user cancelled (nothing happens).
   *
   * Any other value adds a row with a localized error and leaves the draft as it was; a picker
   * that throws shows the localized error too. Pass the picker's file name and mime type: an
   * Android `content://` URI carries neither, and without an `image/*` type a screenshot is
   * stored as a plain file. Without this prop the composer has no attach button.
   *
   * expo-image-picker:
   * ```ts
   * async function pickAttachment() {
   *   const result = await ImagePicker.launchImageLibraryAsync({ mediaTypes: ["images"], allowsMultipleSelection: true });
   *   if (result.canceled) return null;
   *   return result.assets.map((a) => ({ fileUri: a.uri, filename: a.fileName ?? undefined, mimeType: a.mimeType ?? undefined }));
   * }
   * ```
   * react-native-image-picker:
   * ```ts
   * async function pickAttachment() {
   *   const response = await launchImageLibrary({ mediaType: "photo", selectionLimit: 0 });
   *   if (response.didCancel) return null;
   *   if (response.errorCode !== undefined) throw new Error(response.errorMessage ?? response.errorCode);
   *   return (response.assets ?? []).map((a) => ({ fileUri: a.uri, filename: a.fileName, mimeType: a.type }));
   * }
   * ```
   * @default undefined (no "Add files" action)
   */
  pickAttachment?: (() => Promise<unknown> | unknown) | undefined;
  /**
   * Adds a "Screenshot of this screen" action: resolve with an upload request of the image (a
   * React Native file part `{uri, name, type}` with an `image/*` type), or `null` when there is none.
   * The composer usually covers the screen the user means, so capture it before showing the
   * composer (react-native-view-shot's `captureScreen`, see the README's recipe) and resolve with that.
   * @default undefined (no screenshot action)
   */
  captureScreenshot?: (() => Promise<UploadRequest | null>) | undefined;
  /**
   * Show the person typing a platform chooser. On a phone the platform is known, so by default
   * there is none and rule 4 picks it (see `defaultPlatform`).
   * @default false
   */
  showPlatformPicker?: boolean | undefined;
  /**
   * The platform candidate before the app's allowlist is applied (rule 4).
   * @default the client's `defaultPlatform` when the host set one, else the running OS (`Platform.OS`)
   */
  defaultPlatform?: Platform | undefined;
  /** Called with the submission id once the feedback is sent. @default undefined */
  onSubmitted?: ((submissionId: string) => void) | undefined;
}

/**
 * Rule 4 candidate on a device: the prop, else the client's default unless that is the SDK's own
 * `universal` (what it detects in React Native when the host set nothing), else the running OS.
 */
function platformCandidate(prop: Platform | undefined, clientDefault: Platform): Platform {
  return prop ?? (clientDefault !== "universal" ? clientDefault : runtimePlatform());
}

function PlatformChooser(props: { composer: FeedbackComposerState }) {
  const { t } = useTidings();
  const palette = usePalette();
  const { composer } = props;
  // A chooser only when there is something to choose; otherwise the one sent is shown.
  if (composer.platformChoices.length < 2) {
    return <Text style={{ color: palette.text2, fontSize: 16 }}>{t(`platform.${composer.platform}`)}</Text>;
  }
  return (
    <View accessibilityRole="radiogroup" accessibilityLabel={t("feedback.platform")} style={{ flexDirection: "row", flexWrap: "wrap", gap: 8 }}>
      {composer.platformChoices.map((p) => {
        const selected = p === composer.platform;
        return (
          <Pressable
            key={p}
            accessibilityRole="radio"
            accessibilityLabel={t(`platform.${p}`)}
            accessibilityState={{ checked: selected }}
            onPress={() => composer.setPlatform(p)}
            style={{
              minHeight: MIN_TOUCH,
              minWidth: MIN_TOUCH,
              paddingHorizontal: 14,
              justifyContent: "center",
              borderRadius: 8,
              borderWidth: 1,
              borderColor: selected ? palette.primary : palette.border,
              backgroundColor: selected ? palette.primary : palette.card,
            }}
          >
            <Text style={{ color: selected ? palette.primaryText : palette.text, fontSize: 16 }}>{t(`platform.${p}`)}</Text>
          </Pressable>
        );
      })}
    </View>
  );
}

/** The localized error of the last submission or pick; the draft above it stays as it was (rule 11). */
function ErrorNotice(props: { composer: FeedbackComposerState }) {
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
function Sent(props: { submissionId?: string | undefined; onAnother: () => void }) {
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

/**
 * The feedback form for a phone: title, details, the app's custom fields for feedback, an attachments step (a screenshot of the screen
 * and files from the host's picker, rule 10, each listed with upload progress, a thumbnail for
 * images and a remove button) and localized errors that leave the draft intact (rule 11). The
 * platform is rule 4's; a chooser shows only with `showPlatformPicker`. With an outbox in the
 * provider, a submission made without a connection is kept and the saved-on-this-device notice
 * shows, turning into the sent one when the outbox delivers it. With the `feedback` flag off it
 * shows only the unavailable state.
 *
 * @example
 * ```tsx
 * <FeedbackComposer captureScreenshot={captureScreenshot} pickAttachment={pickAttachment} onSubmitted={(id) => navigation.goBack()} />
 * ```
 */
export function FeedbackComposer(props: FeedbackComposerProps) {
  const { t, client } = useTidings();
  const palette = usePalette();
  const composer = useFeedbackComposer({
    defaultPlatform: platformCandidate(props.defaultPlatform, client.defaultPlatform),
    showPlatformPicker: props.showPlatformPicker,
  });

  if (!composer.enabled) {
    return (
      <Screen label={t("feedback.title")}>
        <Unavailable message={t("feedback.unavailable")} />
      </Screen>
    );
  }

  // The outcome screens, one branch per final status of the shared hook; every other status shows the form.
  switch (composer.status) {
    case "sent":
      if (composer.result !== null) {
        return (
          <Screen label={t("feedback.title")}>
            <Sent submissionId={composer.result.submissionId} onAnother={composer.startOver} />
          </Screen>
        );
      }
      break;
    case "queued":
      return (
        <Screen label={t("feedback.title")}>
          <Sent onAnother={composer.startOver} />
        </Screen>
      );
    default:
      break;
  }

  const onSubmit = async () => {
    const sent = await composer.submit();
    if (sent !== null) props.onSubmitted?.(sent.submissionId);
  };
  const submitting = composer.status === "submitting";
  const label = { color: palette.text, fontSize: 16, fontWeight: "600" } as const;
  const input = { minHeight: MIN_TOUCH, borderWidth: 1, borderRadius: 8, borderColor: palette.inputBorder, backgroundColor: palette.inputBg, color: palette.text, fontSize: 16, paddingHorizontal: 12, paddingVertical: 10 } as const;

  return (
    <Screen label={t("feedback.title")}>
      <ScrollView keyboardShouldPersistTaps="handled" automaticallyAdjustKeyboardInsets contentContainerStyle={{ padding: 16, gap: 10 }}>
        <Text style={label}>{t("feedback.subject")}</Text>
        <TextInput accessibilityLabel={t("feedback.subject")} value={composer.title} onChangeText={composer.setTitle} maxLength={200} returnKeyType="next" placeholderTextColor={palette.muted} style={input} />
        <Text style={label}>{t("feedback.details")}</Text>
        <TextInput
          accessibilityLabel={t("feedback.details")}
          value={composer.details}
          onChangeText={composer.setDetails}
          multiline
          numberOfLines={5}
          textAlignVertical="top"
          placeholderTextColor={palette.muted}
          style={[input, { minHeight: 120 }]}
        />
        <CustomFieldInputs fields={composer.fields} />
        {composer.platformChoices.length === 0 ? null : (
          <>
            <Text style={label}>{t("feedback.platform")}</Text>
            <PlatformChooser composer={composer} />
          </>
        )}
        {props.pickAttachment === undefined && props.captureScreenshot === undefined ? null : (
          <AttachmentsStep composer={composer} pick={props.pickAttachment} capture={props.captureScreenshot} />
        )}
        <ErrorNotice composer={composer} />
        <Pressable
          accessibilityRole="button"
          accessibilityLabel={submitting ? t("feedback.sending") : t("feedback.submit")}
          accessibilityState={{ disabled: !composer.canSubmit, busy: submitting }}
          disabled={!composer.canSubmit}
          onPress={() => void onSubmit()}
          style={{
            minHeight: MIN_TOUCH,
            flexDirection: "row",
            gap: 8,
            alignItems: "center",
            justifyContent: "center",
            paddingHorizontal: 16,
            borderRadius: 8,
            backgroundColor: palette.primary,
            opacity: composer.canSubmit ? 1 : 0.5,
          }}
        >
          {submitting ? <ActivityIndicator color={palette.primaryText} /> : null}
          <Text style={{ color: palette.primaryText, fontSize: 16, fontWeight: "600" }}>{submitting ? t("feedback.sending") : t("feedback.submit")}</Text>
        </Pressable>
      </ScrollView>
    </Screen>
  );
}
