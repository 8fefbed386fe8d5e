import { useTidings, type FeedbackComposerState } from "@tidings/react-core";
import { Pressable, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/** The platform the feedback is about: radio buttons when the app allows several, else the one sent. */
export function PlatformChooser(props: { composer: FeedbackComposerState }) {
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
