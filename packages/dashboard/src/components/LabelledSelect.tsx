import { Select, type Choice } from "./Select.js";

/** A {@link Select} wrapped in its label ("Label <select>"), as in filter bars and inline forms. */
export function LabelledSelect(props: { label: string; value: string; choices: readonly Choice[]; onChange: (value: string) => void }) {
  return (
    <label>
      {props.label} <Select value={props.value} choices={props.choices} onChange={props.onChange} />
    </label>
  );
}
