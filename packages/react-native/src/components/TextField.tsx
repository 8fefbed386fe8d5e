import type { ReactNode } from "react";
import { Text, TextInput, View, type TextInputProps } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/** What a form field shows around its control: the label (a star when required), a note and the error under it. */
export interface FieldFrameProps {
  label: string;
  required?: boolean | undefined;
  /** Help under the control (a description, the limits). */
  note?: string | undefined;
  /** The problem to fix, in the danger colour. */
  error?: string | undefined;
  children?: ReactNode;
}

/** A form field's label, control, note and error, stacked. */
export function FieldFrame(props: FieldFrameProps) {
  const palette = usePalette();
  return (
    <View style={{ gap: 6 }}>
      <Text style={{ color: palette.text, fontSize: 16, fontWeight: "600" }}>
        {props.label}
        {props.required ? <Text style={{ color: palette.danger }}> *</Text> : null}
      </Text>
      {props.children}
      {props.note ? <Text style={{ color: palette.muted, fontSize: 14 }}>{props.note}</Text> : null}
      {props.error === undefined ? null : <Text style={{ color: palette.danger, fontSize: 14 }}>{props.error}</Text>}
    </View>
  );
}

/**
 * A labelled text input of a form, in the theme's colours, at least {@link MIN_TOUCH} high; screen
 * readers hear `spoken` (default: the label) and the error as its hint.
 */
export function TextField(
  props: Omit<FieldFrameProps, "children"> & { spoken?: string | undefined } & Pick<TextInputProps, "value" | "onChangeText" | "multiline" | "maxLength" | "keyboardType" | "autoComplete" | "autoCapitalize" | "textContentType">,
) {
  const palette = usePalette();
  const { label, required, note, error, spoken, ...input } = props;
  return (
    <FieldFrame label={label} required={required} note={note} error={error}>
      <TextInput
        accessibilityLabel={spoken ?? label}
        accessibilityHint={error}
        placeholderTextColor={palette.muted}
        {...input}
        style={{
          minHeight: props.multiline ? MIN_TOUCH * 2.5 : MIN_TOUCH,
          paddingHorizontal: 12,
          paddingVertical: 10,
          borderRadius: 8,
          borderWidth: 1,
          borderColor: error === undefined ? palette.inputBorder : palette.dangerBorder,
          backgroundColor: palette.inputBg,
          color: palette.text,
          fontSize: 16,
          textAlignVertical: props.multiline ? "top" : "center",
        }}
      />
    </FieldFrame>
  );
}
