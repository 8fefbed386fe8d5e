import { useState, type ReactNode } from "react";
import { t } from "../i18n/t.js";

/**
 * The typed text of a search box and the query last submitted (trimmed); `submit` makes the
 * typed text the query.
 */
export function useSearch() {
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  return { text, setText, query, submit: () => setQuery(text.trim()) };
}

/**
 * A list's filter bar: `children` (the filters and the {@link SearchInput}, in order), then the
 * Search button, then `actions`. Submitting it runs `onSearch`.
 */
export function SearchForm(props: { onSearch: () => void; children: ReactNode; actions?: ReactNode }) {
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch();
      }}
    >
      {props.children}
      <button type="submit">{t("common.search")}</button>
      {props.actions}
    </form>
  );
}

/** The free-text box of a {@link SearchForm}. */
export function SearchInput(props: { value: string; onChange: (value: string) => void }) {
  return (
    <label>
      {t("common.search")} <input type="search" value={props.value} maxLength={200} onChange={(e) => props.onChange(e.target.value)} />
    </label>
  );
}
