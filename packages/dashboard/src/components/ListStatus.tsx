import type { ReactNode } from "react";
import { t } from "../i18n/t.js";
import { Empty } from "./ui.js";

/**
 * What a loaded list shows besides its rows: "Loading…" until the first answer (only with
 * `showLoading`), and `empty` once it has answered with no rows.
 */
export function ListStatus(props: { list: { data: unknown; loading: boolean }; count: number; empty: ReactNode; showLoading?: boolean }) {
  return (
    <>
      {props.showLoading === true && props.list.loading && props.list.data === undefined ? <p>{t("common.loading")}</p> : null}
      {props.list.data !== undefined && props.count === 0 ? <Empty>{props.empty}</Empty> : null}
    </>
  );
}
