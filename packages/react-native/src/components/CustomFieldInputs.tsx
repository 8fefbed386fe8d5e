import type { CustomField } from "@tidings/client";
import { useTidings, type CustomFieldsState } from "@tidings/react-core";
import { Pressable, Text, TextInput, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/** A radio (single select) or checkbox (multi select, checkbox field) with its box and label. */
function Choice(props: { label: string; checked: boolean; radio: boolean; onPress: () => void }) {
  const palette = usePalette();
  return (
    <Pressable
      accessibilityRole={props.radio ? "radio" : "checkbox"}
      accessibilityLabel={props.label}
      accessibilityState={{ checked: props.checked }}
      onPress={props.onPress}
      style={{ minHeight: MIN_TOUCH, flexDirection: "row", alignItems: "center", gap: 10 }}
    >
      <View
        style={{
          width: 22,
          height: 22,
          borderRadius: props.radio ? 11 : 5,
          borderWidth: 2,
          borderColor: props.checked ? palette.primary : palette.inputBorder,
          backgroundColor: props.checked ? palette.primary : palette.inputBg,
        }}
      />
      <Text style={{ flexShrink: 1, color: palette.text, fontSize: 16 }}>{props.label}</Text>
    </Pressable>
  );
}

function Field(props: { field: CustomField; state: CustomFieldsState }) {
  const { t } = useTidings();
  const palette = usePalette();
  const { field, state } = props;
  const value = state.values[field.key];
  const error = state.errors[field.key];
  const hint = state.hint(field);
  const set = state.setValue.bind(null, field.key);
  // Read out with the control; the visible mark is a star.
  const spoken = field.required ? t("fields.requiredLabel", { label: field.label }) : field.label;
  const note = [field.description, hint].filter(Boolean).join(" · ");
  let control;
  if (field.type === "checkbox") {
    control = <Choice label={spoken} checked={value === true} radio={false} onPress={() => set(value !== true)} />;
  } else if (field.type === "single_select" || field.type === "multi_select") {
    const multi = field.type === "multi_select";
    const chosen = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
    control = (
      <View accessibilityRole={multi ? undefined : "radiogroup"} accessibilityLabel={spoken}>
        {field.options.map((o) => {
          const on = chosen.includes(o.value);
          // A radio tapped again is cleared, so an optional choice can be taken back.
          const next = multi ? (on ? chosen.filter((v) => v !== o.value) : [...chosen, o.value]) : on ? null : o.value;
          return <Choice key={o.value} label={o.label} checked={on} radio={!multi} onPress={() => set(next)} />;
        })}
      </View>
    );
  } else {
    const long = field.type === "long_text";
    control = (
      <TextInput
        accessibilityLabel={spoken}
        accessibilityHint={error}
        value={typeof value === "string" || typeof value === "number" ? String(value) : ""}
        onChangeText={set}
        multiline={long}
        keyboardType={field.type === "number" ? (field.limits.integer ? "number-pad" : "decimal-pad") : "default"}
        placeholderTextColor={palette.muted}
        style={{
          minHeight: long ? MIN_TOUCH * 2.5 : MIN_TOUCH,
          paddingHorizontal: 12,
          paddingVertical: 10,
          borderRadius: 8,
          borderWidth: 1,
          borderColor: error === undefined ? palette.inputBorder : palette.dangerBorder,
          backgroundColor: palette.inputBg,
          color: palette.text,
          fontSize: 16,
          textAlignVertical: long ? "top" : "center",
        }}
      />
    );
  }
  return (
    <View style={{ gap: 6 }}>
      {field.type === "checkbox" ? null : (
        <Text importantForAccessibility="no" accessibilityElementsHidden style={{ color: palette.text, fontSize: 16, fontWeight: "600" }}>
          {field.label}
          {field.required ? <Text style={{ color: palette.danger }}> *</Text> : null}
        </Text>
      )}
      {control}
      {note === "" ? null : <Text style={{ color: palette.muted, fontSize: 14 }}>{note}</Text>}
      {error === undefined ? null : (
        <Text accessibilityLiveRegion="polite" style={{ color: palette.danger, fontSize: 14 }}>
          {error}
        </Text>
      )}
    </View>
  );
}

/**
 * The custom fields of a form (`useProposeRequest().fields`, `useFeedbackComposer().fields`):
 * one control per field by type (a text field, a number pad, radios, checkboxes, a checkbox), with
 * its description, required mark, limits and the problem found before sending or named by the
 * server. Draws nothing when the form asks for no fields.
 *
 * @example
 * ```tsx
 * const composer = useFeedbackComposer();
 * <CustomFieldInputs fields={composer.fields} />
 * ```
 */
export function CustomFieldInputs(props: { fields: CustomFieldsState }) {
  return (
    <>
      {props.fields.fields.map((field) => (
        <Field key={field.key} field={field} state={props.fields} />
      ))}
    </>
  );
}
