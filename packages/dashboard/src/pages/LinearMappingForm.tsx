import type { BoardColumn, LinearConnection } from "@tidings/protocol";
import { api } from "../api.js";
import { ColumnSelect } from "../components/ColumnSelect.js";
import { Field } from "../components/ui.js";
import { t } from "../i18n/t.js";

const STATES = ["completed", "started", "canceled"] as const;

/** The mapping as edited: a column id per Linear state, "" for the default. */
export type StateMapping = Record<(typeof STATES)[number], string>;

/** Where Linear's issue states move a request: a column for completed, started and canceled. */
export function LinearMappingForm(props: {
  path: string;
  connection: LinearConnection;
  columns: readonly BoardColumn[];
  /** The mapping as edited, or null for the saved one. */
  mapping: StateMapping | null;
  onMapping: (mapping: StateMapping | null) => void;
  run: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const c = props.connection;
  const setMapping = props.onMapping;
  const current: StateMapping = props.mapping ?? { completed: c.mapping.completed?.id ?? "", started: c.mapping.started?.id ?? "", canceled: c.mapping.canceled?.id ?? "" };
  return (
    <form
      className="settings"
      aria-label={t("integrations.linear.mapping")}
      onSubmit={(e) => {
        e.preventDefault();
        const body = Object.fromEntries(STATES.map((s) => [`${s}Column`, current[s] === "" ? null : current[s]]));
        void props.run(() => api("PATCH", props.path, body), t("common.saved")).then((ok) => ok && setMapping(null));
      }}
    >
      <h3>{t("integrations.mapping")}</h3>
      {STATES.map((s) => (
        <Field key={s} id={`ln-${s}`} label={t(`integrations.linear.${s}`)}>
          <ColumnSelect id={`ln-${s}`} columns={props.columns} value={current[s]} none={t(s === "canceled" ? "integrations.stays" : "integrations.default")} onChange={(column) => setMapping({ ...current, [s]: column })} />
        </Field>
      ))}
      <button type="submit">{t("integrations.saveMapping")}</button>
    </form>
  );
}
