import { useState } from "react";
import { api } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { ErrorBanner, Notice, Pager, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { TokenForm } from "./TokenForm.js";
import { TokenRow, type Token } from "./TokenRow.js";

const PAGE = 20;

/**
 * The signed-in person's API tokens: create (the secret is shown once), list, revoke. A token
 * may be read-only, and bound to the workspace on screen (what the MCP server needs when its
 * user belongs to several).
 */
export function Tokens(props: { workspace: { id: string; name: string } | undefined }) {
  const list = useLoad(() => api<{ tokens: Token[] }>("GET", "/tokens"), []);
  const [failure, setFailure] = useState<unknown>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);

  const revoke = async (token: Token) => {
    if (!window.confirm(t("tokens.revokeConfirm", { name: token.name }))) return;
    setFailure(null);
    try {
      await api("DELETE", `/tokens/${token.id}`);
      setNotice(t("tokens.revoked"));
      setCreated(null);
    } catch (error) {
      setFailure(error);
    }
    list.reload();
  };
  const tokens = list.data?.tokens ?? [];

  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">{t("tokens.title")}</h1>
      <p className="hint">{t("tokens.intro")}</p>
      <TokenForm
        workspace={props.workspace}
        onStart={() => (setFailure(null), setNotice(null))}
        onCreated={(token) => (setCreated(token), list.reload())}
        onFailure={setFailure}
      />
      {created === null ? null : (
        <div className="banner banner-info secret" role="status">
          <span>{t("tokens.created")}</span>
          <code data-testid="new-token">{created}</code>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created)}>
            {t("common.copy")}
          </button>
        </div>
      )}
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      <ListStatus list={list} count={tokens.length} empty={t("tokens.empty")} />
      <ul className="rows">
        {tokens.slice(offset, offset + PAGE).map((token) => (
          <TokenRow key={token.id} token={token} workspace={props.workspace} onRevoke={(token) => void revoke(token)} />
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} total={tokens.length} onChange={setOffset} />
    </section>
  );
}
