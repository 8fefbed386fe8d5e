import { textLength } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { Select } from "../components/Select.js";
import { describedBy, ErrorBanner, Field, Notice, Pager, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

const PAGE = 20;

interface Token {
  id: string;
  name: string;
  prefix: string;
  scope: "read" | "read-write";
  workspaceId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The signed-in person's API tokens: create (the secret is shown once), list, revoke. A token
 * may be read-only, and bound to the workspace on screen (what the MCP server needs when its
 * user belongs to several).
 */
export function Tokens(props: { workspace: { id: string; name: string } | undefined }) {
  const list = useLoad(() => api<{ tokens: Token[] }>("GET", "/tokens"), []);
  const [name, setName] = useState("");
  const [scope, setScope] = useState<Token["scope"]>("read-write");
  const [bound, setBound] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setNotice(null);
    const trimmed = name.trim();
    const local: FieldErrors = {};
    if (trimmed === "") local.name = [t("validation.required")];
    else if (textLength(trimmed) > 120) local.name = [t("validation.tooLong", { max: 120 })];
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      const workspaceId = bound ? props.workspace?.id : undefined;
      const answer = await api<Token & { token: string }>("POST", "/tokens", { name: trimmed, scope, ...(workspaceId === undefined ? {} : { workspaceId }) });
      setCreated(answer.token);
      setName("");
      list.reload();
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    }
  };
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
      <form className="inline-form" onSubmit={(e) => void create(e)} noValidate>
        <Field id="token-name" label={t("tokens.name")} errors={errors.name}>
          <input id="token-name" value={name} onChange={(e) => setName(e.target.value)} {...describedBy("token-name", errors.name)} />
        </Field>
        <Field id="token-scope" label={t("tokens.scope")} errors={errors.scope}>
          <Select
            id="token-scope"
            value={scope}
            choices={[
              { value: "read-write", label: t("tokens.scopeReadWrite") },
              { value: "read", label: t("tokens.scopeRead") },
            ]}
            onChange={(value) => setScope(value === "read" ? "read" : "read-write")}
          />
        </Field>
        {props.workspace === undefined ? null : (
          <label>
            <input type="checkbox" checked={bound} onChange={(e) => setBound(e.target.checked)} /> {t("tokens.bound", { workspace: props.workspace.name })}
          </label>
        )}
        <button type="submit" className="primary">
          {t("tokens.create")}
        </button>
      </form>
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
          <li key={token.id} className="row" data-testid="token-row">
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
            <button type="button" className="danger" aria-label={`${t("tokens.revoke")} ${token.name}`} onClick={() => void revoke(token)}>
              {t("tokens.revoke")}
            </button>
          </li>
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} total={tokens.length} onChange={setOffset} />
    </section>
  );
}
