import { COMPANY_SORTS, type Company } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { DataTable } from "../components/DataTable.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { ListStatus } from "../components/ListStatus.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { choices } from "../components/Select.js";
import { ErrorBanner, Pager, useLoad } from "../components/ui.js";
import { useOffset } from "../components/useOffset.js";
import { t } from "../i18n/t.js";
import { formatMoney } from "../money.js";
import { CompanyLink } from "./CompanyLink.js";

const PAGE = 25;

/** An app's companies as the host reported them, with their MRR, plan, users and requests. */
export function Companies(props: { wsId: string; appId: string }) {
  const [sort, setSort] = useState<(typeof COMPANY_SORTS)[number]>("mrr");
  const search = useSearch();
  const { offset, setOffset, refilter } = useOffset();
  const list = useLoad(() => {
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset), sort });
    if (search.query !== "") params.set("q", search.query);
    return api<{ companies: Company[]; total: number }>("GET", `/workspaces/${props.wsId}/apps/${props.appId}/companies?${params.toString()}`);
  }, [props.wsId, props.appId, sort, search.query, offset]);
  const companies = list.data?.companies ?? [];

  return (
    <section aria-labelledby="companies-title">
      <h1 id="companies-title">{t("companies.title")}</h1>
      <SearchForm onSearch={() => (setOffset(0), search.submit())}>
        <SearchInput value={search.text} onChange={search.setText} />
        <LabelledSelect label={t("companies.sort")} value={sort} choices={choices(COMPANY_SORTS, (s) => t(`companies.sort.${s}`))} onChange={refilter((value) => setSort(value as (typeof COMPANY_SORTS)[number]))} />
      </SearchForm>
      <ErrorBanner error={list.error} onRetry={list.reload} />
      <ListStatus list={list} count={companies.length} empty={t("companies.empty")} showLoading />
      {companies.length === 0 ? null : (
        <DataTable testId="companies" columns={[t("companies.company"), t("companies.mrr"), t("companies.plan"), t("companies.users"), t("companies.requests")]}>
          {companies.map((c) => (
            <tr key={c.id}>
              <th scope="row">
                <CompanyLink wsId={props.wsId} appId={props.appId} company={c} /> <code>{c.externalId}</code>
              </th>
              <td>{formatMoney(c.mrr, c.currency)}</td>
              <td>{c.plan ?? "—"}</td>
              <td>{c.userCount}</td>
              <td>{c.requestCount}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager offset={offset} limit={PAGE} total={list.data?.total ?? 0} onChange={setOffset} />
    </section>
  );
}
