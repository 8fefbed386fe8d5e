import type { AdminFeatureRequest, Board } from "@tidings/protocol";
import { Select, type Choice } from "../components/Select.js";
import { TagChip } from "../components/TagChip.js";
import { t } from "../i18n/t.js";
import { formatRevenue } from "../money.js";
import { navigate } from "../router.js";

/** One request in the triage list: its check box, link, counts and tags, and on the all tab the column to move it to. */
export function RequestRow(props: {
  wsId: string;
  appId: string;
  request: AdminFeatureRequest;
  tab: "pending" | "all";
  checked: boolean;
  onToggle: () => void;
  boards: readonly Board[];
  columnChoices: readonly Choice[];
  onMove: (columnId: string) => void;
}) {
  const { request: r, boards: boardList } = props;
  const href = `/admin/w/${props.wsId}/a/${props.appId}/requests/${r.id}`;
  return (
    <li className="row" data-testid="request-row">
      <input type="checkbox" aria-label={r.title} checked={props.checked} onChange={props.onToggle} />
      <div className="row-main">
        <a href={href} aria-label={t("detail.open", { title: r.title })} onClick={(e) => (e.preventDefault(), navigate(href))}>
          <strong>{r.title}</strong>
        </a>
        <small>
          {t("requests.votes", { count: r.voteCount })} · {r.columnName ?? "—"}
          {boardList.length > 1 ? ` · ${boardList.find((b) => b.id === r.boardId)?.name ?? "—"}` : ""}
          {r.requesterEmail === null ? "" : ` · ${r.requesterEmail}`}
          {r.companyCount === 0 && r.companyRevenue.length === 0 ? "" : ` · ${t("requests.companies", { count: r.companyCount })} · ${formatRevenue(r.companyRevenue)}`}
        </small>
        {r.tags.length === 0 ? null : (
          <span className="chips">
            {r.tags.map((tag) => (
              <TagChip key={tag.id} tag={tag} />
            ))}
          </span>
        )}
        {r.description === "" ? null : <p>{r.description}</p>}
      </div>
      {props.tab === "all" ? <Select aria-label={`${t("requests.moveTo")}: ${r.title}`} value={r.columnId ?? ""} choices={props.columnChoices} onChange={props.onMove} /> : null}
    </li>
  );
}
