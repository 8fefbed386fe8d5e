import type { BoardColumn } from "@tidings/protocol";
import { Select } from "./Select.js";

/** A select of the app's columns, with a first choice for "none" (`""`) named by `none`. */
export function ColumnSelect(props: { id?: string; label?: string; columns: readonly BoardColumn[]; value: string; none: string; onChange: (columnId: string) => void }) {
  return (
    <Select
      {...(props.id === undefined ? {} : { id: props.id })}
      {...(props.label === undefined ? {} : { "aria-label": props.label })}
      value={props.value}
      choices={[{ value: "", label: props.none }, ...props.columns.map((c) => ({ value: c.id, label: c.name }))]}
      onChange={props.onChange}
    />
  );
}
