import type { CustomField } from "@tidings/protocol";
import { useState } from "react";
import { valueText } from "../field-values.js";
import { t } from "../i18n/t.js";
import { Select } from "./Select.js";

/** One `field.<key>=<value>` filter of the console list. */
export interface FieldFilterValue {
  key: string;
  value: string;
}

/** The most field filters the console list takes at once. */
export const MAX_FIELD_FILTERS = 10;

/**
 * Filters on custom field values (every one must match): removable chips, and a field menu with
 * an input that fits the field's type (its options, yes or no, or typed text).
 */
export function FieldFilter(props: { fields: readonly CustomField[]; filters: readonly FieldFilterValue[]; onChange: (filters: FieldFilterValue[]) => void }) {
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const field = props.fields.find((f) => f.key === key);
  const label = (filter: FieldFilterValue) => {
    const of = props.fields.find((f) => f.key === filter.key);
    const shown = of?.type === "checkbox" ? valueText(of, filter.value === "true") : valueText(of, filter.value);
    return `${of?.label ?? filter.key}: ${shown}`;
  };
  const add = () => {
    if (field === undefined || value.trim() === "") return;
    props.onChange([...props.filters, { key: field.key, value: value.trim() }]);
    setValue("");
  };
  if (props.fields.length === 0) return null;
  return (
    <>
      {props.filters.length < MAX_FIELD_FILTERS ? (
        <span className="field-filter">
          <label>
            {t("requests.fieldFilter")}{" "}
            <Select
              value={key}
              choices={[{ value: "", label: t("requests.chooseField") }, ...props.fields.map((f) => ({ value: f.key, label: f.label }))]}
              onChange={(next) => {
                setKey(next);
                setValue("");
              }}
            />
          </label>
          {field === undefined ? null : (
            <>
              <label>
                <span className="visually-hidden">{t("requests.fieldValue", { name: field.label })}</span>
                {field.type === "single_select" || field.type === "multi_select" || field.type === "checkbox" ? (
                  <Select
                    value={value}
                    choices={[
                      { value: "", label: "—" },
                      ...(field.type === "checkbox"
                        ? [
                            { value: "true", label: t("common.yes") },
                            { value: "false", label: t("common.no") },
                          ]
                        : field.options.map((o) => ({ value: o.value, label: o.label }))),
                    ]}
                    onChange={setValue}
                  />
                ) : (
                  <input
                    value={value}
                    inputMode={field.type === "number" ? "decimal" : undefined}
                    maxLength={200}
                    onChange={(e) => setValue(e.target.value)}
                    onKeyDown={(e) => {
                      // Enter adds the filter rather than sending the search without it.
                      if (e.key === "Enter") {
                        e.preventDefault();
                        add();
                      }
                    }}
                  />
                )}
              </label>
              <button type="button" disabled={value.trim() === ""} onClick={add}>
                {t("requests.addFieldFilter")}
              </button>
            </>
          )}
        </span>
      ) : null}
      {props.filters.map((filter, i) => (
        <span key={`${filter.key}=${filter.value}`} className="chip" data-testid="field-filter-chip">
          {label(filter)}
          <button type="button" className="link" aria-label={t("requests.removeFieldFilter", { name: label(filter) })} onClick={() => props.onChange(props.filters.filter((_, j) => j !== i))}>
            ×
          </button>
        </span>
      ))}
    </>
  );
}
