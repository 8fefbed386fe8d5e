import type { BoardColumn, GithubConnection } from "@tidings/protocol";
import { api } from "../api.js";
import { ColumnSelect } from "../components/ColumnSelect.js";
import { Field } from "../components/ui.js";
import { t } from "../i18n/t.js";

type LabelRow = { label: string; column: string };

/** The mapping as edited: columns by id, "" for the default. */
export type GithubMapping = { closed: string; reopened: string; labels: LabelRow[] };

/** The mapping as the PATCH body names it (columns by id; null keeps the default). */
export function githubMappingBody(closed: string, reopened: string, labels: readonly LabelRow[]) {
  return {
    closedColumn: closed === "" ? null : closed,
    reopenedColumn: reopened === "" ? null : reopened,
    labelColumns: labels.filter((row) => row.label.trim() !== "" && row.column !== "").map((row) => ({ label: row.label.trim(), column: row.column })),
  };
}

/** Where GitHub's events move a request: the column a closed or reopened issue goes to, and a column per label. */
export function GithubMappingForm(props: {
  path: string;
  connection: GithubConnection;
  columns: readonly BoardColumn[];
  /** The mapping as edited, or null for the saved one. */
  mapping: GithubMapping | null;
  onMapping: (mapping: GithubMapping | null) => void;
  run: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const c = props.connection;
  const setMapping = props.onMapping;
  const current = props.mapping ?? { closed: c.mapping.closed?.id ?? "", reopened: c.mapping.reopened?.id ?? "", labels: c.mapping.labels.map((l) => ({ label: l.label, column: l.column.id })) };
  const setLabel = (index: number, row: LabelRow) => setMapping({ ...current, labels: current.labels.map((r, i) => (i === index ? row : r)) });
  return (
    <form
      className="settings"
      aria-label={t("integrations.mapping")}
      onSubmit={(e) => {
        e.preventDefault();
        void props.run(() => api("PATCH", props.path, githubMappingBody(current.closed, current.reopened, current.labels)), t("common.saved")).then((ok) => ok && setMapping(null));
      }}
    >
      <h3>{t("integrations.mapping")}</h3>
      <Field id="gh-closed" label={t("integrations.github.closed")}>
        <ColumnSelect id="gh-closed" columns={props.columns} value={current.closed} none={t("integrations.firstDone")} onChange={(closed) => setMapping({ ...current, closed })} />
      </Field>
      <Field id="gh-reopened" label={t("integrations.github.reopened")}>
        <ColumnSelect id="gh-reopened" columns={props.columns} value={current.reopened} none={t("integrations.stays")} onChange={(reopened) => setMapping({ ...current, reopened })} />
      </Field>
      {current.labels.map((row, index) => (
        <div className="inline-form" key={index}>
          <input aria-label={t("integrations.github.label")} value={row.label} maxLength={50} onChange={(e) => setLabel(index, { ...row, label: e.target.value })} />
          <ColumnSelect label={t("integrations.github.labelColumn", { label: row.label })} columns={props.columns} value={row.column} none="—" onChange={(column) => setLabel(index, { ...row, column })} />
          <button type="button" onClick={() => setMapping({ ...current, labels: current.labels.filter((_, i) => i !== index) })}>
            {t("integrations.github.removeLabel")}
          </button>
        </div>
      ))}
      <div className="inline-form">
        <button type="button" onClick={() => setMapping({ ...current, labels: [...current.labels, { label: "", column: "" }] })}>
          {t("integrations.github.addLabel")}
        </button>
        <button type="submit">{t("integrations.saveMapping")}</button>
      </div>
    </form>
  );
}
