/**
 * The argon2 binding, loaded with the first password hashed or checked rather than when the server
 * starts: an instance whose console is reached by token alone never loads it (docs/capacity.md,
 * "A server at rest").
 */
const argon2 = () => import("@node-rs/argon2");

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): ~20 ms here, bounded by the 200-character cap.
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id, an ambient const enum */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * An argon2id PHC string for a console password.
 *
 * @example
 * ```ts
 * const stored = await hashPassword("correct horse battery"); // "$argon2id$v=19$m=19456,t=2,p=1$…"
 * ```
 */
export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, OPTIONS);
}

// Verified against when the email is unknown, so a miss costs as long as a wrong password.
let decoy: Promise<string> | undefined;

/**
 * True when `password` matches `stored`; with `stored` null it still spends one verification
 * (against a decoy hash) and answers false, so timing does not reveal which emails exist.
 *
 * @example
 * ```ts
 * if (!(await verifyPassword(user?.passwordHash ?? null, body.password))) throw new ApiError("invalid_credentials");
 * ```
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    decoy ??= hashPassword("decoy password that matches nothing");
    await (await argon2()).verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await (await argon2()).verify(stored, password);
  } catch {
    return false;
  }
}
