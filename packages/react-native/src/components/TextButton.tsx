import { Pressable, Text } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/**
 * A filled (primary) or outlined text button of at least {@link MIN_TOUCH} points.
 *
 * @example
 * ```tsx
 * <TextButton label="Post" primary onPress={post} />
 * ```
 */
export function TextButton(props: { label: string; text?: string | undefined; onPress: () => void; primary?: boolean; disabled?: boolean; busy?: boolean }) {
  const palette = usePalette();
  const disabled = props.disabled === true;
  return (
    <Pressable
      accessibilityRole="button"
      accessibilityLabel={props.label}
      accessibilityState={{ disabled, busy: props.busy === true }}
      disabled={disabled}
      onPress={props.onPress}
      style={{
        minHeight: MIN_TOUCH,
        minWidth: MIN_TOUCH,
        justifyContent: "center",
        alignItems: "center",
        paddingHorizontal: 14,
        borderRadius: 8,
        borderWidth: 1,
        borderColor: props.primary ? palette.primary : palette.border,
        backgroundColor: props.primary ? palette.primary : palette.card,
        opacity: disabled ? 0.6 : 1,
      }}
    >
      <Text style={{ color: props.primary ? palette.primaryText : palette.text, fontSize: 16, fontWeight: props.primary ? "600" : "400" }}>{props.text ?? props.label}</Text>
    </Pressable>
  );
}
