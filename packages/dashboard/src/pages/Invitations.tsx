import type { Invitation } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { choices, Select } from "../components/Select.js";
import { describedBy, Empty, ErrorBanner, Field, Notice, type useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

const ROLES = ["member", "admin", "owner"] as const;

type InvitationList = ReturnType<typeof useLoad<{ invitations: Invitation[] }>>;

/** Invitations to the workspace: invite by email (the link to send is shown), and the pending ones to revoke. */
export function Invitations(props: { wsId: string; isOwner: boolean; invitations: InvitationList }) {
  const { invitations } = props;
  // Only owners grant or withdraw owner; the server refuses it to others anyway.
  const roles = props.isOwner ? ROLES : ROLES.filter((r) => r !== "owner");
  const base = `/workspaces/${props.wsId}`;
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
  );
}
