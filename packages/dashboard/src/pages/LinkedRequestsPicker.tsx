import type { AdminFeatureRequest } from "@tidings/protocol";
import { ListStatus } from "../components/ListStatus.js";
import { ErrorBanner, type useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";

type RequestList = ReturnType<typeof useLoad<{ requests: AdminFeatureRequest[] }>>;

/** The feature requests a release delivers, ticked among the app's requests. */
export function LinkedRequestsPicker(props: { requests: RequestList; selected: readonly string[]; errors: readonly string[] | undefined; onChange: (linkedRequestIds: string[]) => void }) {
  return (
    <fieldset className="field">
      <legend>{t("changelog.linkedRequests")}</legend>
      <ErrorBanner error={props.requests.error} onRetry={props.requests.reload} />
      <ListStatus list={props.requests} count={props.requests.data?.requests.length ?? 0} empty={t("changelog.noRequests")} />
      {(props.requests.data?.requests ?? []).map((request) => (
        <label key={request.id} className="check">
          <input
            type="checkbox"
            checked={props.selected.includes(request.id)}
            onChange={(e) => props.onChange(e.target.checked ? [...props.selected, request.id] : props.selected.filter((id) => id !== request.id))}
          />{" "}
          {request.title}
        </label>
      ))}
      {props.errors === undefined ? null : <small className="field-error" role="alert">{props.errors.join(" ")}</small>}
    </fieldset>
  );
}
