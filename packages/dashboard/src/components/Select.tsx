import type { SelectHTMLAttributes } from "react";

/** One option of a {@link Select}: the submitted value and the text shown for it. */
export interface Choice {
  value: string;
  label: string;
}

/** Choices from plain values, each shown as `label(value)` (the value itself by default). */
export function choices<T extends string>(values: readonly T[], label: (value: T) => string = (value) => value): Choice[] {
  return values.map((value) => ({ value, label: label(value) }));
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "children"> & {
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
};

/** A select over a list of choices; other attributes (id, aria-label, aria-describedby…) go to the element. */
export function Select(props: SelectProps) {
  const { value, choices: options, onChange, ...rest } = props;
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
