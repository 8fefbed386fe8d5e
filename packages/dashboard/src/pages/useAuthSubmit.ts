import type { SessionState } from "@tidings/protocol";
import { useState } from "react";
import { ApiFailure } from "../api.js";
import type { FieldErrors } from "../settings-form.js";
import type { Done } from "./credentials.js";

/**
 * Sends an auth form once its local check passes: the busy flag while it is out, the server's
 * field errors and failure when refused, and the new session to `onDone` when accepted.
 */
export function useAuthSubmit(onDone: Done) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (local: FieldErrors, send: () => Promise<SessionState>) => {
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      onDone(await send());
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return { errors, failure, busy, submit };
}
