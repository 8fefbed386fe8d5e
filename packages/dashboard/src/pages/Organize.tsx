import type { Board } from "@tidings/protocol";
import { api } from "../api.js";
import { useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { BoardsSection } from "./Boards.js";
import { CustomFieldsSection } from "./CustomFields.js";
import { TagsSection } from "./Tags.js";

/** How an app's requests are organised: its boards, its tags and the custom fields of its forms. */
export function Organize(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const boards = useLoad(() => api<{ boards: Board[] }>("GET", `/workspaces/${props.wsId}/apps/${props.appId}/boards`), [props.wsId, props.appId]);
  return (
    <section aria-labelledby="organize-title">
      <h1 id="organize-title">{t("organize.title")}</h1>
      <p className="hint">{t("organize.intro")}</p>
      <BoardsSection {...props} boards={boards} />
      <TagsSection {...props} />
      <CustomFieldsSection {...props} boards={boards.data?.boards ?? []} />
    </section>
  );
}
