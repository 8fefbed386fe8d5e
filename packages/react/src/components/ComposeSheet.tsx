import type { FeatureRequestItem } from "@tidings/client";
import { useId, useState, type FormEvent } from "react";
import { useBoards, useTidings, useProposeRequest, useSimilarRequests } from "@tidings/react-core";
import { CustomFieldInputs } from "./CustomFieldInputs.js";
import { Modal } from "./Modal.js";
import { Unavailable } from "./States.js";

/**
 * The sheet to propose a feature request (blocked while `featureRequests` is off). The draft stays
 * after a failure; after success it shows the thanks, telling when the request awaits review. A
 * proposal the provider's outbox kept for later (no connection) shows the saved-on-this-device notice.
 * While the title is typed it lists the most similar existing requests (paced lookups), each
 * opening that request through `onOpenRequest` so the visitor can vote instead of proposing a duplicate.
 * The request goes to `board` (default: the app's default board), which the visitor may change
 * when there are several; the board's custom fields are asked, checked before sending, and a field
 * the server refuses shows its problem under it.
 *
 * @example
 * ```tsx
 * {open ? <ComposeSheet onClose={() => setOpen(false)} /> : null}
 * ```
 */
export function ComposeSheet(props: {
  /** The slug of the board proposed to first (the list's board). @default the app's default board */
  board?: string | undefined;
  onClose: () => void;
  onSubmitted?: ((result: { featureRequestId: string; pending: boolean }) => void) | undefined;
  /** Opens an existing request from the similar ones; without it they are listed as plain text. */
  onOpenRequest?: ((item: FeatureRequestItem) => void) | undefined;
}) {
  const { t } = useTidings();
  const boards = useBoards().data ?? [];
  const [board, setBoard] = useState(props.board);
  const propose = useProposeRequest({ board });
  const [title, setTitle] = useState("");
  const similar = useSimilarRequests(title, { enabled: propose.enabled && propose.result === null });
  const [details, setDetails] = useState("");
  const [email, setEmail] = useState("");
  const [invalid, setInvalid] = useState(false);
  const ids = { title: useId(), details: useId(), email: useId(), error: useId(), similar: useId(), board: useId() };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === "") {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    const result = await propose.submit({ title, details, requesterEmail: email });
    if (result !== null) props.onSubmitted?.(result);
  };

  return (
    <Modal title={t("compose.title")} onClose={props.onClose}>
      {!propose.enabled ? (
        <Unavailable />
      ) : propose.queued !== null ? (
        <div className="td-stack">
          <p role="status" className="td-success">
            {t("outbox.queued")}
          </p>
          <button type="button" className="td-button td-primary" onClick={props.onClose}>
            {t("common.close")}
          </button>
        </div>
      ) : propose.result !== null ? (
        <div className="td-stack">
          <p role="status" className="td-success">
            {propose.result.pending ? t("compose.donePending") : t("compose.done")}
          </p>
          <button type="button" className="td-button td-primary" onClick={props.onClose}>
            {t("common.close")}
          </button>
        </div>
      ) : (
        <form className="td-stack" onSubmit={(e) => void onSubmit(e)} noValidate>
          {boards.length > 1 ? (
            <>
              <label htmlFor={ids.board}>{t("compose.board")}</label>
              <select id={ids.board} className="td-input" value={board ?? boards.find((b) => b.isDefault)?.slug ?? ""} onChange={(e) => setBoard(e.target.value)}>
                {boards.map((b) => (
                  <option key={b.id} value={b.slug}>
                    {b.name}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <label htmlFor={ids.title}>{t("compose.requestTitle")}</label>
          <input
            id={ids.title}
            className="td-input"
            value={title}
            maxLength={200}
            required
            aria-invalid={invalid}
            aria-describedby={invalid ? ids.error : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
          {invalid ? (
            <p id={ids.error} className="td-danger td-small">
              {t("compose.titleRequired")}
            </p>
          ) : null}
          {similar.items.length > 0 ? (
            <div className="td-similar" aria-live="polite">
              <p id={ids.similar} className="td-small td-muted">
                {t("compose.similar")}
              </p>
              <ul className="td-list" aria-labelledby={ids.similar}>
                {similar.items.map((item) => (
                  <li key={item.id} className="td-similar-item">
                    {props.onOpenRequest ? (
                      <button type="button" className="td-link" onClick={() => props.onOpenRequest?.(item)}>
                        {item.title}
                      </button>
                    ) : (
                      <span>{item.title}</span>
                    )}{" "}
                    <span className="td-muted td-small">{t("vote.votes", { count: item.voteCount })}</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <label htmlFor={ids.details}>{t("compose.details")}</label>
          <textarea id={ids.details} className="td-input" rows={4} value={details} onChange={(e) => setDetails(e.target.value)} />
          <CustomFieldInputs fields={propose.fields} />
          <label htmlFor={ids.email}>{t("compose.email")}</label>
          <input id={ids.email} type="email" className="td-input" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          {propose.error ? (
            <p role="alert" className="td-notice td-danger">
              {propose.error}
            </p>
          ) : null}
          <div className="td-actions">
            <button type="button" className="td-button" onClick={props.onClose}>
              {t("common.cancel")}
            </button>
            <button type="submit" className="td-button td-primary" disabled={propose.submitting}>
              {propose.submitting ? t("compose.submitting") : t("compose.submit")}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
