import type { CustomField } from "@tidings/client";
import { useTidings, type CustomFieldsState } from "@tidings/react-core";
import { View } from "react-native";
import { Chip } from "./FilterChips.js";
import { FieldFrame, TextField } from "./TextField.js";

function Field(props: { field: CustomField; state: CustomFieldsState }) {
  const { t } = useTidings();
  const { field, state } = props;
  const { key, label, required, type } = field;
  const value = state.values[key];
  const set = (next: Parameters<CustomFieldsState["setValue"]>[1]) => state.setValue(key, next);
  const frame = { label, required, error: state.errors[key], note: [field.description, state.hint(field)].filter(Boolean).join(" · ") };
  // Read out with the control; the visible mark is a star.
  const spoken = required ? t("fields.requiredLabel", { label }) : label;
  if (type === "text" || type === "long_text" || type === "number") {
    return (
      <TextField
        {...frame}
        spoken={spoken}
        value={typeof value === "string" || typeof value === "number" ? String(value) : ""}
        onChangeText={set}
        multiline={type === "long_text"}
        keyboardType={type !== "number" ? "default" : field.limits.integer ? "number-pad" : "decimal-pad"}
      />
    );
  }
  if (type === "checkbox") {
    return (
      <FieldFrame {...frame}>
        <Chip label={spoken} multiple selected={value === true} onPress={() => set(value !== true)} />
      </FieldFrame>
    );
  }
  const multi = type === "multi_select";
  const picked = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  // A radio tapped again is cleared, so an optional choice can be taken back.
  const toggle = (option: string) => set(picked.includes(option) ? (multi ? picked.filter((v) => v !== option) : null) : multi ? [...picked, option] : option);
  return (
    <FieldFrame {...frame}>
      <View accessibilityRole={multi ? undefined : "radiogroup"} accessibilityLabel={spoken} style={{ flexDirection: "row", flexWrap: "wrap", gap: 8 }}>
        {field.options.map((o) => (
          <Chip key={o.value} label={o.label} multiple={multi} selected={picked.includes(o.value)} onPress={() => toggle(o.value)} />
        ))}
      </View>
    </FieldFrame>
  );
}

/**
 * The custom fields of a form (`useProposeRequest().fields`, `useFeedbackComposer().fields`):
 * one control per field by type (a text field, a number pad, radio or checkbox chips, a checkbox
 * chip), with its description, required mark, limits and the problem found before sending or
 * named by the server. Draws nothing when the form asks for no fields.
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
