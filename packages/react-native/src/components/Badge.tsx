import { Text, View } from "react-native";
import { usePalette } from "../theme.js";

/** Props of {@link Badge}. */
export interface BadgeProps {
  /** The text of the badge, already localized (e.g. `t("requests.pending")` or a version label). */
  label: string;
  /** `pending` is the warning look of a request waiting for review; `neutral` the chip colours. @default "neutral" */
  tone?: "neutral" | "pending" | undefined;
}

/**
 * A small rounded label: "Pending review", a column name, a version label, "Team". Text only, so
 * screen readers read it with the row it sits in; the text scales with the system font size.
 *
 * @example
 * ```tsx
 * {!item.approved ? <Badge label={t("requests.pending")} tone="pending" /> : null}
 * <Badge label={t("changelog.version", { version: "1.2" })} />
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
      }}
    >
      <Text style={{ fontSize: 12, fontWeight: "600", color: pending ? palette.danger : palette.chipText }}>{props.label}</Text>
    </View>
  );
}
