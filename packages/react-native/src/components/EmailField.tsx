import { TextInput } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/** Props of {@link EmailField}. */
export interface EmailFieldProps {
  /** Read by screen readers and shown as the placeholder. */
  label: string;
  value: string;
  onChangeText: (value: string) => void;
  /** The keyboard's send key. */
  onSubmit: () => void;
}

/**
 * An email address field for the forms of the screens (release-note subscription, following a
 * request): the email keyboard, autofill, no autocorrection, a 44 pt target, the theme's colours.
 *
 * @example
 * ```tsx
 * <EmailField label={t("changelog.email")} value={email} onChangeText={setEmail} onSubmit={submit} />
 * ```
 */
export function EmailField(props: EmailFieldProps) {
  const palette = usePalette();
  return (
    <TextInput
      accessibilityLabel={props.label}
      placeholder={props.label}
      placeholderTextColor={palette.muted}
      value={props.value}
      onChangeText={props.onChangeText}
      keyboardType="email-address"
      autoComplete="email"
      textContentType="emailAddress"
      autoCapitalize="none"
      autoCorrect={false}
      returnKeyType="send"
      onSubmitEditing={props.onSubmit}
      style={{ flex: 1, minHeight: MIN_TOUCH, paddingHorizontal: 12, fontSize: 16, color: palette.text, backgroundColor: palette.inputBg, borderWidth: 1, borderColor: palette.inputBorder, borderRadius: 10 }}
    />
  );
}
