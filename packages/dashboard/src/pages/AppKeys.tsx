import type { AppRecord } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { Notice } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { knownSecret, rememberSecret } from "./secrets.js";

/**
 * The app's signing secret as this tab knows it, whether it is revealed, and its rotation (a
 * refusal goes to `onFailure`). The page holds it, so a failed reload keeps a revealed secret.
 */
export function useSigningSecret(wsId: string, appId: string, onFailure: (error: unknown) => void) {
  const [secret, setSecret] = useState<string | undefined>(knownSecret(appId));
  const [revealed, setRevealed] = useState(false);
  const [rotated, setRotated] = useState(false);
  const rotate = async () => {
    if (!window.confirm(t("apps.rotateConfirm"))) return;
    try {
      const answer = await api<{ signingSecret: string }>("POST", `/workspaces/${wsId}/apps/${appId}/signing-secret`);
      rememberSecret(appId, answer.signingSecret);
      setSecret(answer.signingSecret);
      setRevealed(true);
      setRotated(true);
    } catch (error) {
      onFailure(error);
    }
  };
  return { secret, revealed, setRevealed, rotated, rotate };
}

/** The app's key, the client snippet that uses it, and its signing secret (reveal, rotate). */
export function AppKeys(props: { app: AppRecord; signing: ReturnType<typeof useSigningSecret>; canConfigure: boolean }) {
  const { app } = props;
  const { secret, revealed, setRevealed, rotated, rotate } = props.signing;
  const origin = window.location.origin;
  const snippet = `import { FeedbackClient } from "@tidings/client";\n\nconst tidings = new FeedbackClient({\n  appKey: "${app.appKey}",\n  baseUrl: "${origin}",\n});`;
  return (
    <div className="card keys">
      <p>
        {t("apps.key")}: <code data-testid="app-key">{app.appKey}</code>
      </p>
      <h2>{t("apps.snippet")}</h2>
      <pre className="snippet" data-testid="snippet">{snippet}</pre>
      <h2>{t("apps.secret")}</h2>
      {rotated ? <Notice>{t("apps.rotated")}</Notice> : null}
      {secret === undefined ? (
        <p>{t("apps.secretHidden")}</p>
      ) : (
        <p className="secret">
          <code data-testid="signing-secret">{revealed ? secret : "•".repeat(24)}</code>{" "}
          <button type="button" onClick={() => setRevealed(!revealed)} aria-pressed={revealed}>
            {revealed ? t("apps.hide") : t("apps.reveal")}
          </button>
        </p>
      )}
      {props.canConfigure ? (
        <button type="button" className="danger" onClick={() => void rotate()}>
          {t("apps.rotate")}
        </button>
      ) : null}
    </div>
  );
}
