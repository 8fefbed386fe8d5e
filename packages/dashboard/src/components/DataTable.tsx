import type { ReactNode } from "react";

/** A scrollable table with a header row of `columns`; `children` are the body rows. */
export function DataTable(props: { columns: readonly string[]; testId?: string; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid={props.testId}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
