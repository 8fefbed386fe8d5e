import { useChangelogOverlay, useTidings, type ChangelogRelease, type UseChangelogOverlayOptions } from "@tidings/react-core";
import { Modal, Pressable, ScrollView, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { ReleaseNotes } from "./ReleaseNotes.js";

/** Props of {@link ChangelogOverlay}. */
export interface ChangelogOverlayProps extends UseChangelogOverlayOptions {
  /** Called after the reader dismissed the overlay. @default undefined */
  onClose?: (() => void) | undefined;
}

/**
 * The changelog overlay (rule 8): a modal sheet with the config's overlay copy (title, subtitle,
 * button texts) and the newest releases as native text. With `onlyIfUnseen` it shows only while
 * the newest release is unseen; with `autoMarkSeen` (the default) dismissing it marks that release
 * seen in the client's storage adapter, so it is shown once per release.
 *
 * @example
 * ```tsx
 * <ChangelogOverlay onlyIfUnseen />
 * ```
 */
export function ChangelogOverlay(props: ChangelogOverlayProps) {
  const { t } = useTidings();
  const palette = usePalette();
  const overlay = useChangelogOverlay(props);
  if (!overlay.visible || overlay.data === null) return null;
  const copy = overlay.data.appearance?.changelogOverlay ?? {};
  const title = copy.title || t("overlay.title");
  const primary = copy.primaryButton || t("overlay.continue");
  const closeLabel = copy.closeButton || t("common.close");
  const close = () => {
    void overlay.close();
    props.onClose?.();
  };
  return (
    <Modal visible animationType="slide" presentationStyle="pageSheet" onRequestClose={close}>
      <View accessibilityViewIsModal accessibilityLabel={title} style={{ flex: 1, backgroundColor: palette.bg, paddingBottom: 24 }}>
        <View style={{ flexDirection: "row", alignItems: "flex-start", gap: 8, paddingHorizontal: 16, paddingTop: 16, paddingBottom: 8 }}>
          <View style={{ flex: 1, gap: 4 }}>
            <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 22, fontWeight: "700" }}>
              {title}
            </Text>
            {copy.subtitle ? <Text style={{ color: palette.muted, fontSize: 16 }}>{copy.subtitle}</Text> : null}
          </View>
          <Pressable
            accessibilityRole="button"
            accessibilityLabel={closeLabel}
            onPress={close}
            hitSlop={4}
            style={{ minWidth: MIN_TOUCH, minHeight: MIN_TOUCH, alignItems: "center", justifyContent: "center", borderRadius: MIN_TOUCH / 2 }}
          >
            <Text importantForAccessibility="no" style={{ color: palette.muted, fontSize: 24 }}>
              ×
            </Text>
          </Pressable>
        </View>
        <ScrollView style={{ flex: 1 }} contentContainerStyle={{ paddingHorizontal: 16, paddingBottom: 16, gap: 12 }}>
          {overlay.data.entries.map((entry) => (
            <ReleaseNotes key={entry.id} entry={entry as ChangelogRelease} />
          ))}
        </ScrollView>
        <View style={{ paddingHorizontal: 16 }}>
          <Pressable
            accessibilityRole="button"
            accessibilityLabel={primary}
            onPress={close}
            style={{ minHeight: MIN_TOUCH + 4, alignItems: "center", justifyContent: "center", borderRadius: 12, backgroundColor: palette.primary }}
          >
            <Text style={{ color: palette.primaryText, fontSize: 17, fontWeight: "600" }}>{primary}</Text>
          </Pressable>
        </View>
      </View>
    </Modal>
  );
}
