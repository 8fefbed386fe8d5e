import type { ReactNode } from "react";
import { Pressable, ScrollView, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/**
 * A choice among a few (board, version, sort): a radio of at least {@link MIN_TOUCH} points; with
 * `multiple`, a checkbox among others (tags, a multi select).
 */
export function Chip(props: { label: string; selected: boolean; onPress: () => void; multiple?: boolean }) {
  const palette = usePalette();
  return (
    <Pressable
      accessibilityRole={props.multiple ? "checkbox" : "radio"}
      accessibilityLabel={props.label}
      accessibilityState={{ checked: props.selected, selected: props.selected }}
      onPress={props.onPress}
      style={{
        minHeight: MIN_TOUCH,
        minWidth: MIN_TOUCH,
        justifyContent: "center",
        paddingHorizontal: 14,
        borderRadius: 999,
        borderWidth: 1,
        borderColor: props.selected ? palette.primary : palette.border,
        backgroundColor: props.selected ? palette.primary : palette.chipBg,
      }}
    >
      <Text style={{ color: props.selected ? palette.primaryText : palette.chipText, fontSize: 15 }}>{props.label}</Text>
    </Pressable>
  );
}

/** A labelled radio group of chips (with `multiple`, a group of checkboxes), scrolling sideways when they do not fit. */
export function ChipRow(props: { label: string; children: ReactNode; multiple?: boolean }) {
  return (
    <View accessibilityRole={props.multiple ? undefined : "radiogroup"} accessibilityLabel={props.label}>
      <ScrollView horizontal showsHorizontalScrollIndicator={false} contentContainerStyle={{ gap: 8, paddingHorizontal: 12 }}>
        {props.children}
      </ScrollView>
    </View>
  );
}
