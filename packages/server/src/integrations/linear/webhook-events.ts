/** What a webhook job carries: the parts of an Issue `update` delivery Tidings acts on. */
export interface LinearWebhookJobPayload {
  connectionId: string;
  deliveryId: string;
  issueId: string;
  /** The new workflow state's type (`started`, `completed`, `canceled`, …). */
  stateType: string;
}

/** The parts of an Issue `update` delivery that changed its state, or undefined for anything else. */
export function linearJobPayload(connection: { id: string; teamId: string }, deliveryId: string, payload: Record<string, unknown>): LinearWebhookJobPayload | undefined {
  const { action, type, data, updatedFrom } = payload as { action?: unknown; type?: unknown; data?: Record<string, unknown>; updatedFrom?: Record<string, unknown> };
  if (action !== "update" || type !== "Issue" || typeof data !== "object" || data === null) return undefined;
  if (typeof updatedFrom !== "object" || updatedFrom === null || !("stateId" in updatedFrom)) return undefined;
  if (typeof data.teamId === "string" && data.teamId !== connection.teamId) return undefined;
  const state = data.state as { type?: unknown } | undefined;
  if (typeof data.id !== "string" || typeof state?.type !== "string") return undefined;
  return { connectionId: connection.id, deliveryId, issueId: data.id, stateType: state.type };
}
