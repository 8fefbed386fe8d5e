/** Options every method takes. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Per-call budget in ms. */
  timeoutMs?: number | undefined;
}

/** Options of methods that act for a user. */
export interface UserCallOptions extends CallOptions {
  /** Use this token for the call instead of the client's. */
  userToken?: string | undefined;
}

/** The option of every method that POSTs. */
export interface IdempotentCallOptions {
  /**
   * Sent as `Idempotency-Key`: the server answers a repeat with the same key and body with its
   * first answer (header `Idempotent-Replayed: true`) instead of writing again. Use one fresh key
   * per submission (e.g. {@link uuidV4}) and the same key, with the same draft, for every retry of
   * it. Blank: no header. @default none
   */
  idempotencyKey?: string | undefined;
}

/** Options of the methods that POST for a user. */
export interface UserPostOptions extends UserCallOptions, IdempotentCallOptions {}
