import { t } from "../i18n/t.js";

export interface Token {
  id: string;
  name: string;
  prefix: string;
  scope: "read" | "read-write";
  workspaceId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/** One token's line: its name, prefix, scope, the workspace it is bound to, when it was made and last used, and revoke. */
export function TokenRow(props: { token: Token; workspace: { id: string; name: string } | undefined; onRevoke: (token: Token) => void }) {
  const { token } = props;
  return (
    <li className="row" data-testid="token-row">
      <div className="row-main">
        <strong>{token.name}</strong>
        <small>
          <code>{token.prefix}…</code> · {token.scope === "read" ? t("tokens.scopeRead") : t("tokens.scopeReadWrite")} ·{" "}
          {token.workspaceId === null ? t("tokens.everyWorkspace") : token.workspaceId === props.workspace?.id ? t("tokens.onlyWorkspace", { workspace: props.workspace.name }) : t("tokens.otherWorkspace")} ·{" "}
          {t("tokens.lastUsed", {
            created: new Date(token.createdAt).toLocaleDateString(),
            used: token.lastUsedAt === null ? t("common.never") : new Date(token.lastUsedAt).toLocaleString(),
          })}
        </small>
      </div>
      <button type="button" className="danger" aria-label={`${t("tokens.revoke")} ${token.name}`} onClick={() => props.onRevoke(token)}>
        {t("tokens.revoke")}
      </button>
    </li>
  );
}
