/** A proof-of-work challenge as `GET /public/apps/<APP_KEY>/verification/challenge` serves it (altcha v2). */
export interface AltchaChallenge {
  parameters: {
    /** Key derivation; the SDK solves `PBKDF2/SHA-256`, and `PBKDF2/SHA-384` / `PBKDF2/SHA-512` with Web Crypto. */
    algorithm: string;
    /** Hex; the password of each attempt is these bytes followed by the counter. */
    nonce: string;
    /** Hex. */
    salt: string;
    /** PBKDF2 iterations per attempt. */
    cost: number;
    /** Bytes of the derived key. @default 32 */
    keyLength?: number;
    /** Hex the derived key of the secret counter starts with. */
    keyPrefix: string;
    [field: string]: unknown;
  };
  signature?: string;
}

/** The counter whose derived key matches the challenge's prefix, and that key in lowercase hex. */
export interface AltchaSolution {
  counter: number;
  derivedKey: string;
}

/**
 * The verification token the server checks: `base64(JSON.stringify({challenge, solution}))`.
 *
 * @example
 * ```ts
 * await client.submitFeedback({ title, details, verificationToken: encodeAltchaToken(challenge, solution) });
 * ```
 */
export function encodeAltchaToken(challenge: AltchaChallenge, solution: AltchaSolution): string {
  // `btoa` (in browsers, Node and Hermes since React Native 0.74) takes one character per byte.
  let binary = "";
  for (const byte of new TextEncoder().encode(JSON.stringify({ challenge, solution }))) binary += String.fromCharCode(byte);
  return btoa(binary);
}
