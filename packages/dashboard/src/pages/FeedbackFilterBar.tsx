import { useState } from "react";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { choices, type Choice } from "../components/Select.js";
import { FILTERS, PLATFORMS, PRIORITIES } from "../feedback-inbox.js";
import { t } from "../i18n/t.js";

/** The inbox filters as chosen; a date range that ends before it starts is an error (and lists nothing). */
export function useFeedbackFilterState() {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>("active");
  const search = useSearch();
  const [platform, setPlatform] = useState("");
  const [priority, setPriority] = useState("");
  const [assignee, setAssignee] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const dateError = from !== "" && to !== "" && from > to;
  return { filter, setFilter, search, platform, setPlatform, priority, setPriority, assignee, setAssignee, from, setFrom, to, setTo, dateError };
}

/** The inbox's filter bar: status, platform, priority, assignee, a date range and the search text. */
export function FeedbackFilterBar(props: {
  state: ReturnType<typeof useFeedbackFilterState>;
  memberChoices: readonly Choice[];
  /** Wraps a filter's setter so that changing the filter goes back to the first page. */
  refilter: <T>(set: (value: T) => void) => (value: T) => void;
  onSearch: () => void;
}) {
  const { refilter } = props;
  const { filter, setFilter, search, platform, setPlatform, priority, setPriority, assignee, setAssignee, from, setFrom, to, setTo, dateError } = props.state;
  return (
    <>
      <SearchForm onSearch={props.onSearch}>
        <LabelledSelect label={t("feedback.status")} value={filter} choices={choices(FILTERS, (f) => t(`feedback.status.${f}`))} onChange={refilter((value) => setFilter(value as (typeof FILTERS)[number]))} />
        <LabelledSelect label={t("feedback.platform")} value={platform} choices={[{ value: "", label: t("feedback.anyPlatform") }, ...choices(PLATFORMS)]} onChange={refilter(setPlatform)} />
        <LabelledSelect label={t("feedback.priority")} value={priority} choices={[{ value: "", label: t("feedback.anyPriority") }, ...choices(PRIORITIES)]} onChange={refilter(setPriority)} />
        <LabelledSelect
          label={t("feedback.assignee")}
          value={assignee}
          choices={[{ value: "", label: t("feedback.anyone") }, { value: "unassigned", label: t("feedback.unassigned") }, ...props.memberChoices]}
          onChange={refilter(setAssignee)}
        />
        <label>
          {t("feedback.fromDate")} <input type="date" value={from} aria-invalid={dateError} onChange={(e) => refilter(setFrom)(e.target.value)} />
        </label>
        <label>
          {t("feedback.toDate")} <input type="date" value={to} aria-invalid={dateError} onChange={(e) => refilter(setTo)(e.target.value)} />
        </label>
        <SearchInput value={search.text} onChange={search.setText} />
      </SearchForm>
      {dateError ? (
        <p className="field-error" role="alert">
          {t("feedback.dateOrder")}
        </p>
      ) : null}
    </>
  );
}
