import type { Invitation, Membership } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { choices, Select } from "../components/Select.js";
import { describedBy, Empty, ErrorBanner, Field, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

const ROLES = ["member", "admin", "owner"] as const;

/** Members of the workspace, invitations by link, and pending invitations. */
export function Members(props: { wsId: string; canManage: boolean; isOwner: boolean }) {
  // Only owners grant or withdraw owner; the server refuses it to others anyway.
  const roles = props.isOwner ? ROLES : ROLES.filter((r) => r !== "owner");
  const base = `/workspaces/${props.wsId}`;
  const members = useLoad(() => api<{ members: Membership[] }>("GET", `${base}/members`), [props.wsId]);
  const invitations = useLoad(
    () => (props.canManage ? api<{ invitations: Invitation[] }>("GET", `${base}/invitations`) : Promise.resolve({ invitations: [] })),
    [props.wsId, props.canManage],
  );
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<(typeof ROLES)[number]>("member");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setErrors({ email: [t("validation.email")] });
      return;
    }
    setErrors({});
    try {
      const answer = await api<{ url: string; invitation: Invitation }>("POST", `${base}/invitations`, { email: email.trim(), role });
      setLink({ email: answer.invitation.email, url: answer.url });
      setEmail("");
      invitations.reload();
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    }
  };
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">{t("members.title")}</h1>
      <ErrorBanner error={members.error ?? invitations.error} onRetry={() => (members.reload(), invitations.reload())} />
      <ul className="rows">
        {(members.data?.members ?? []).map((m) => (
          <li key={m.id} className="row">
            <div className="row-main">
              <strong>{m.displayName ?? m.email}</strong>
              <small>
                {m.email} · {t(`role.${m.role}`)}
              </small>
            </div>
          </li>
        ))}
      </ul>
      {props.canManage ? (
        <>
          <form className="inline-form" onSubmit={(e) => void invite(e)} noValidate aria-label={t("members.invite")}>
            <ErrorBanner error={failure} />
            <Field id="invite-email" label={t("auth.email")} errors={errors.email}>
              <input id="invite-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} {...describedBy("invite-email", errors.email)} />
            </Field>
            <Field id="invite-role" label={t("members.role")}>
              <Select id="invite-role" value={role} choices={choices(roles, (r) => t(`role.${r}`))} onChange={(value) => setRole(value as (typeof ROLES)[number])} />
            </Field>
            <button type="submit" className="primary">
              {t("members.invite")}
            </button>
          </form>
          {link === null ? null : (
            <Notice>
              {t("members.inviteLink", { email: link.email })} <code data-testid="invite-link">{link.url}</code>{" "}
              <button type="button" onClick={() => void navigator.clipboard?.writeText(link.url)}>
                {t("common.copy")}
              </button>
            </Notice>
          )}
          <h2>{t("members.pending")}</h2>
          {invitations.data?.invitations.length === 0 ? <Empty>—</Empty> : null}
          <ul className="rows">
            {(invitations.data?.invitations ?? []).map((i) => (
              <li key={i.id} className="row">
                <div className="row-main">
                  <strong>{i.email}</strong>
                  <small>{t(`role.${i.role}`)}</small>
                </div>
                {i.role === "owner" && !props.isOwner ? null : (
                  <button type="button" onClick={() => void api("DELETE", `${base}/invitations/${i.id}`).then(invitations.reload, setFailure)}>
                    {t("members.revoke")}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
