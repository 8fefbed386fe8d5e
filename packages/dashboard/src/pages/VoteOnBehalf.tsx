import { textLength, type Company, type VoteOnBehalfResult } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { LabelledSelect } from "../components/LabelledSelect.js";
import { choices, Select } from "../components/Select.js";
import { describedBy, errorMessage, Field, Notice, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";

const WHO = ["email", "endUserId", "companyId"] as const;
type Who = (typeof WHO)[number];

/** The body of a vote on behalf: the one customer named, and the note when there is one. */
export function voteOnBehalfBody(who: Who, value: string, note: string): Record<string, string> {
  const trimmed = note.trim();
  return { [who]: value.trim(), ...(trimmed === "" ? {} : { note: trimmed }) };
}

/**
 * "Vote on behalf": the team adds a customer's vote (an end user by email or public id, or a
 * company), with a note. The server's refusal (an unknown user…) shows in the form.
 */
export function VoteOnBehalf(props: { wsId: string; appId: string; requestId: string; onVoted: () => void }) {
  const [who, setWho] = useState<Who>("email");
  const [value, setValue] = useState("");
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const companies = useLoad(
    () =>
      who === "companyId"
        ? api<{ companies: Company[] }>("GET", `/workspaces/${props.wsId}/apps/${props.appId}/companies?limit=200&sort=mrr`)
        : Promise.resolve({ companies: [] as Company[] }),
    [who, props.wsId, props.appId],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (value.trim() === "") return setError(t("validation.required"));
    if (textLength(note) > 2000) return setError(t("validation.tooLong", { max: 2000 }));
    setError(null);
    setBusy(true);
    try {
      const answer = await api<VoteOnBehalfResult>("POST", `/workspaces/${props.wsId}/feature-requests/${props.requestId}/votes`, voteOnBehalfBody(who, value, note));
      setDone(answer.added ? t("onBehalf.added", { voter: answer.voterPublicId }) : t("onBehalf.already", { voter: answer.voterPublicId }));
      setValue("");
      setNote("");
      props.onVoted();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const errors = error === null ? undefined : [error];

  return (
    <form className="settings" onSubmit={(e) => void submit(e)} noValidate aria-label={t("onBehalf.title")}>
      <div className="inline-form">
        <LabelledSelect label={t("onBehalf.who")} value={who} choices={choices(WHO, (w) => t(`onBehalf.who.${w}`))} onChange={(w) => (setWho(w as Who), setValue(""), setError(null))} />
      </div>
      <Field id="on-behalf-value" label={t(`onBehalf.who.${who}`)} errors={errors}>
        {who === "companyId" ? (
          <Select
            id="on-behalf-value"
            value={value}
            choices={[{ value: "", label: "—" }, ...(companies.data?.companies ?? []).map((c) => ({ value: c.id, label: c.name ?? c.externalId }))]}
            onChange={setValue}
            {...describedBy("on-behalf-value", errors)}
          />
        ) : (
          <input id="on-behalf-value" value={value} type={who === "email" ? "email" : "text"} onChange={(e) => setValue(e.target.value)} {...describedBy("on-behalf-value", errors)} />
        )}
      </Field>
      <Field id="on-behalf-note" label={t("onBehalf.note")}>
        <textarea id="on-behalf-note" rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
      </Field>
      <button type="submit" disabled={busy}>
        {t("onBehalf.submit")}
      </button>
      {done === null ? null : <Notice>{done}</Notice>}
    </form>
  );
}
