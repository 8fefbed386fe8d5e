import { Text, View } from "react-native";
import { usePalette } from "../theme.js";

/** Props of {@link Badge}. */
export interface BadgeProps {
  /** The text of the badge, already localized (e.g. `t("requests.pending")` or a version label). */
  label: string;
  /** `pending` is the warning look of a request waiting for review; `neutral` the chip colours. @default "neutral" */
  tone?: "neutral" | "pending" | undefined;
  /** A dot before the label, as a tag shows its colour (`null`: the chip's text colour). @default no dot */
  dot?: string | null | undefined;
}

/**
 * A small rounded label: "Pending review", a column name, a version label, "Team", a tag with its
 * colour's dot. Text only, so
 * screen readers read it with the row it sits in; the text scales with the system font size.
 *
 * @example
 * ```tsx
 * {!item.approved ? <Badge label={t("requests.pending")} tone="pending" /> : null}
 * <Badge label={t("changelog.version", { version: "1.2" })} />
 * <Badge label={tag.name} dot={tag.color} />
 * ```
 */
export function Badge(props: BadgeProps) {
  const palette = usePalette();
  const pending = props.tone === "pending";
  return (
    <View
      style={{
        alignSelf: "flex-start",
        paddingHorizontal: 8,
        paddingVertical: 2,
        borderRadius: 999,
        borderWidth: pending ? 1 : 0,
        borderColor: pending ? palette.dangerBorder : "transparent",
        backgroundColor: pending ? palette.dangerBg : palette.chipBg,
        flexDirection: "row",
        alignItems: "center",
        gap: 4,
      }}
    >
      {props.dot === undefined ? null : <View style={{ width: 7, height: 7, borderRadius: 4, backgroundColor: props.dot ?? palette.chipText }} />}
      <Text style={{ fontSize: 12, fontWeight: "600", color: pending ? palette.danger : palette.chipText }}>{props.label}</Text>
    </View>
  );
}
