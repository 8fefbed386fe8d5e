import type { FeatureRequestItem, ProposeResult } from "@tidings/client";
import { useBoards, useProposeRequest, useSimilarRequests, useTidings } from "@tidings/react-core";
import { useState } from "react";
import { Modal, Pressable, ScrollView, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { CustomFieldInputs } from "./CustomFieldInputs.js";
import { Chip, ChipRow } from "./FilterChips.js";
import { Screen } from "./Screen.js";
import { Unavailable } from "./States.js";
import { TextField } from "./TextField.js";

/** Props of {@link FeatureRequestComposeSheet}. */
export interface FeatureRequestComposeSheetProps {
  /** The slug of the board proposed to first (the list's board); the user may pick another. @default the app's default board */
  board?: string | undefined;
  /** Whether the sheet is shown. @default true */
  visible?: boolean | undefined;
  /** Called by Cancel, the system back gesture and after a successful proposal. */
  onClose: () => void;
  /**
   * Called with the new request's id and whether it waits for review, just before the sheet
   * closes; the host confirms it (the feature request screen shows a notice and refreshes).
   * @default none
   */
  onSubmitted?: ((result: ProposeResult) => void) | undefined;
  /**
   * Opens one of the similar requests listed while the title is typed (the host closes the sheet);
   * without it they are listed as plain text. @default none
   */
  onOpenRequest?: ((item: FeatureRequestItem) => void) | undefined;
}

function SheetButton(props: { label: string; text?: string; primary?: boolean; disabled?: boolean; busy?: boolean; onPress: () => void }) {
  const palette = usePalette();
  return (
    <Pressable
      accessibilityRole="button"
      accessibilityLabel={props.label}
      accessibilityState={{ disabled: props.disabled === true, busy: props.busy === true }}
      disabled={props.disabled}
      onPress={props.onPress}
      style={{
        minHeight: MIN_TOUCH,
        minWidth: MIN_TOUCH,
        paddingHorizontal: 16,
        justifyContent: "center",
        alignItems: "center",
        borderRadius: 8,
        borderWidth: 1,
        borderColor: props.primary ? palette.primary : palette.border,
        backgroundColor: props.primary ? palette.primary : palette.card,
        opacity: props.disabled ? 0.6 : 1,
      }}
    >
      <Text style={{ color: props.primary ? palette.primaryText : palette.text, fontSize: 16, fontWeight: props.primary ? "600" : "400" }}>{props.text ?? props.label}</Text>
    </Pressable>
  );
}

/**
 * The sheet to propose a feature request (title, details, optional email) through the shared
 * `useProposeRequest`: a localized error keeps the draft; success reports the result and closes; a
 * proposal the provider's outbox kept for later (no connection) shows the saved-on-this-device notice.
 * Shows the unavailable state while the `featureRequests` flag is off. While the title is typed it
 * lists the most similar existing requests (`useSimilarRequests`, paced), so the user can vote on
 * one instead of proposing a duplicate. The request goes to `board`, which the user may change when
 * there are several; the board's custom fields are asked and checked before sending, and a field
 * the server refuses shows its problem under it.
 *
 * @example
 * ```tsx
 * {composing ? <FeatureRequestComposeSheet onClose={() => setComposing(false)} onSubmitted={(r) => list.refresh()} /> : null}
 * ```
 */
export function FeatureRequestComposeSheet(props: FeatureRequestComposeSheetProps) {
  const { t } = useTidings();
  const palette = usePalette();
  const boards = useBoards().data ?? [];
  const [board, setBoard] = useState(props.board);
  const shownBoard = board ?? boards.find((b) => b.isDefault)?.slug;
  const propose = useProposeRequest({ board });
  const [title, setTitle] = useState("");
  const [details, setDetails] = useState("");
  const [email, setEmail] = useState("");
  const [invalid, setInvalid] = useState(false);
  const similar = useSimilarRequests(title, { enabled: propose.enabled && propose.queued === null });

  const submit = async () => {
    if (title.trim() === "") {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    const result = await propose.submit({ title, details, requesterEmail: email });
    if (result === null) return;
    props.onSubmitted?.(result);
    props.onClose();
  };

  return (
    <Modal visible={props.visible ?? true} animationType="slide" presentationStyle="pageSheet" onRequestClose={props.onClose}>
      <Screen label={t("compose.title")}>
        <ScrollView keyboardShouldPersistTaps="handled" contentContainerStyle={{ padding: 16, gap: 14 }}>
          <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 20, fontWeight: "700" }}>
            {t("compose.title")}
          </Text>
          {!propose.enabled ? (
            <>
              <Unavailable />
              <SheetButton label={t("common.close")} onPress={props.onClose} />
            </>
          ) : propose.queued !== null ? (
            <>
              <Text accessibilityRole="alert" accessibilityLiveRegion="polite" style={{ color: palette.success, fontSize: 16 }}>
                {t("outbox.queued")}
              </Text>
              <SheetButton label={t("common.close")} onPress={props.onClose} />
            </>
          ) : (
            <>
              {boards.length > 1 ? (
                <View style={{ gap: 6, marginHorizontal: -12 }}>
                  <Text style={{ color: palette.text, fontSize: 16, fontWeight: "600", marginHorizontal: 12 }}>{t("compose.board")}</Text>
                  <ChipRow label={t("compose.board")}>
                    {boards.map((b) => (
                      <Chip key={b.id} label={b.name} selected={shownBoard === b.slug} onPress={() => setBoard(b.slug)} />
                    ))}
                  </ChipRow>
                </View>
              ) : null}
              <TextField label={t("compose.requestTitle")} value={title} onChangeText={setTitle} maxLength={200} error={invalid ? t("compose.titleRequired") : undefined} />
              {similar.items.length === 0 ? null : (
                <View accessibilityLiveRegion="polite" style={{ gap: 6 }}>
                  <Text style={{ color: palette.muted, fontSize: 14 }}>{t("compose.similar")}</Text>
                  {similar.items.map((item) =>
                    props.onOpenRequest === undefined ? (
                      <Text key={item.id} style={{ color: palette.text, fontSize: 16 }}>
                        {item.title} · {t("vote.votes", { count: item.voteCount })}
                      </Text>
                    ) : (
                      <Pressable
                        key={item.id}
                        accessibilityRole="button"
                        accessibilityLabel={item.title}
                        onPress={() => props.onOpenRequest?.(item)}
                        style={{ minHeight: MIN_TOUCH, justifyContent: "center" }}
                      >
                        <Text style={{ color: palette.primary, fontSize: 16 }}>
                          {item.title} · {t("vote.votes", { count: item.voteCount })}
                        </Text>
                      </Pressable>
                    ),
                  )}
                </View>
              )}
              <TextField label={t("compose.details")} value={details} onChangeText={setDetails} multiline />
              <CustomFieldInputs fields={propose.fields} />
              <TextField
                label={t("compose.email")}
                value={email}
                onChangeText={setEmail}
                keyboardType="email-address"
                autoComplete="email"
                autoCapitalize="none"
                textContentType="emailAddress"
              />
              {propose.error ? (
                <Text accessibilityRole="alert" style={{ color: palette.danger, fontSize: 15, padding: 10, borderRadius: 8, borderWidth: 1, borderColor: palette.dangerBorder, backgroundColor: palette.dangerBg }}>
                  {propose.error}
                </Text>
              ) : null}
              <View style={{ flexDirection: "row", justifyContent: "flex-end", gap: 8 }}>
                <SheetButton label={t("common.cancel")} onPress={props.onClose} />
                <SheetButton
                  label={t("compose.submit")}
                  text={propose.submitting ? t("compose.submitting") : t("compose.submit")}
                  primary
                  busy={propose.submitting}
                  disabled={propose.submitting}
                  onPress={() => void submit()}
                />
              </View>
            </>
          )}
        </ScrollView>
      </Screen>
    </Modal>
  );
}
