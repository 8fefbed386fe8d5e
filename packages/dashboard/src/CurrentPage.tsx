import type { Membership, Workspace } from "@tidings/protocol";
import { t } from "./i18n/t.js";
import { Apps } from "./pages/Apps.js";
import { AppSettings } from "./pages/AppSettings.js";
import { Changelog } from "./pages/Changelog.js";
import { DataTransfer } from "./pages/DataTransfer.js";
import { Duplicates } from "./pages/Duplicates.js";
import { EndUsers } from "./pages/EndUsers.js";
import { Companies } from "./pages/Companies.js";
import { Segments } from "./pages/Segments.js";
import { CompanyDetail } from "./pages/CompanyDetail.js";
import { Feedback } from "./pages/Feedback.js";
import { Integrations } from "./pages/Integrations.js";
import { Members } from "./pages/Members.js";
import { Organize } from "./pages/Organize.js";
import { RequestDetail } from "./pages/RequestDetail.js";
import { Requests } from "./pages/Requests.js";
import { Roadmap } from "./pages/Roadmap.js";
import { Subscribers } from "./pages/Subscribers.js";
import { Webhooks } from "./pages/Webhooks.js";
import { Tokens } from "./pages/Tokens.js";
import { Usage } from "./pages/Usage.js";
import { Versions } from "./pages/Versions.js";
import type { parseRoute } from "./router.js";

/** The page of the current route in the signed-in shell (the apps list when the route names none). */
export function CurrentPage(props: { route: ReturnType<typeof parseRoute>; wsId: string | undefined; workspace: Workspace | undefined; role: Membership["role"]; manager: boolean }) {
  const { route, wsId, manager, role } = props;
  if (wsId === undefined) return <p>{t("common.loading")}</p>;
  if (route.appId !== undefined && route.section === "settings") return <AppSettings key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
  if (route.appId !== undefined && route.section === "roadmap") return <Roadmap key={route.appId} wsId={wsId} appId={route.appId} />;
  if (route.appId !== undefined && route.section === "requests" && route.itemId !== undefined) {
    return <RequestDetail key={route.itemId} wsId={wsId} appId={route.appId} requestId={route.itemId} canDelete={manager} />;
  }
  if (route.appId !== undefined && route.section === "versions") return <Versions key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
  if (route.appId !== undefined && route.section === "organize") return <Organize key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
  if (route.appId !== undefined && route.section === "subscribers") return <Subscribers key={route.appId} wsId={wsId} appId={route.appId} />;
  if (route.appId !== undefined && route.section === "integrations") return <Integrations key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
  if (route.appId !== undefined && route.section === "webhooks") return <Webhooks key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
  if (route.appId !== undefined && route.section === "users") return <EndUsers key={route.appId} wsId={wsId} appId={route.appId} />;
  if (route.appId !== undefined && route.section === "companies" && route.itemId !== undefined) {
    return <CompanyDetail key={route.itemId} wsId={wsId} appId={route.appId} companyId={route.itemId} />;
  }
  if (route.appId !== undefined && route.section === "companies") return <Companies key={route.appId} wsId={wsId} appId={route.appId} />;
  if (route.appId !== undefined && route.section === "segments") return <Segments key={route.appId} wsId={wsId} appId={route.appId} canConfigure={manager} />;
  if (route.section === "usage") return <Usage wsId={wsId} />;
  if (route.section === "data") return <DataTransfer wsId={wsId} canConfigure={manager} />;
  if (route.section === "tokens") return <Tokens workspace={props.workspace} />;
  if (route.appId !== undefined && route.section === "requests") return <Requests key={route.appId} wsId={wsId} appId={route.appId} />;
  if (route.appId !== undefined && route.section === "duplicates") return <Duplicates key={route.appId} wsId={wsId} appId={route.appId} />;
  if (route.appId !== undefined && route.section === "changelog") return <Changelog key={route.appId} wsId={wsId} appId={route.appId} />;
  if (route.section === "feedback") return <Feedback wsId={wsId} />;
  if (route.section === "members") return <Members wsId={wsId} canManage={manager} isOwner={role === "owner"} />;
  return <Apps wsId={wsId} canConfigure={manager} />;
}
