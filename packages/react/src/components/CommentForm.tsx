import { useId, useState, type FormEvent } from "react";
import { useTidings } from "@tidings/react-core";

/** The form of a new comment or a reply: its text stays until it is posted. */
export function CommentForm(props: { label: string; onPost: (body: string) => Promise<boolean>; posting: boolean; autoFocus?: boolean }) {
  const { t } = useTidings();
  const [body, setBody] = useState("");
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await props.onPost(body)) setBody("");
  };
  return (
    <form className="td-comment-form" onSubmit={(e) => void submit(e)}>
      <label htmlFor={id} className="td-visually-hidden">
        {props.label}
      </label>
      <textarea id={id} className="td-input" rows={2} placeholder={props.label} value={body} autoFocus={props.autoFocus} onChange={(e) => setBody(e.target.value)} />
      <button type="submit" className="td-button td-primary" disabled={props.posting || body.trim() === ""}>
        {props.posting ? t("detail.posting") : t("detail.post")}
      </button>
    </form>
  );
}
