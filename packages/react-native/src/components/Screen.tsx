import { useTidings } from "@tidings/react-core";
import type { ReactNode } from "react";
import { View, type StyleProp, type ViewStyle } from "react-native";
import { usePalette } from "../theme.js";

/**
 * The themed root of every screen: the palette's background and an accessibility label naming
 * the screen. Screens render it themselves.
 *
 * @example
 * ```tsx
 * <Screen label="Roadmap">…</Screen>
 * ```
 */
export function Screen(props: { label: string; children?: ReactNode; style?: StyleProp<ViewStyle> }) {
  const palette = usePalette();
  const { theme } = useTidings();
  return (
    <View accessibilityLabel={props.label} testID={`tidings-screen-${theme}`} style={[{ flex: 1, backgroundColor: palette.bg }, props.style]}>
      {props.children}
    </View>
  );
}
