import { nonBlank } from "./blank.js";
import type { UserCallOptions } from "./call-options.js";
import type { FeedbackClientOptions } from "./client-options.js";
import type { UserTokenStore } from "./token-store.js";

/**
 * Who the calls speak for: the end user's token (per call, else the `userToken` option, else the
 * store's), the host's `X-User-Hash` vouching for it, and the SSO token of a signed-in user.
 */
export class Identity {
  /** Set by `setSsoToken`; wins over the option. */
  private ssoOverride: string | null | undefined;

  constructor(
    private readonly options: Pick<FeedbackClientOptions, "userToken" | "userHash" | "ssoToken">,
    private readonly tokens: UserTokenStore,
  ) {}

  /** `null` signs the user out of SSO, `undefined` goes back to the `ssoToken` option. */
  setSsoToken(token: string | null | undefined): void {
    this.ssoOverride = token;
  }

  async ssoToken(): Promise<string | undefined> {
    if (this.ssoOverride === null) return undefined;
    if (this.ssoOverride !== undefined) return nonBlank(this.ssoOverride);
    const option = this.options.ssoToken;
    return nonBlank(typeof option === "function" ? await option() : option);
  }

  /** The token calls use: per call, else the explicit option, else the store's (awaited). */
  async userToken(override?: string): Promise<string> {
    return nonBlank(override) ?? nonBlank(this.options.userToken) ?? (await this.tokens.getToken());
  }

  /** `X-User-Token`, and `X-User-Hash` when the host computes one. */
  async userHeaders(token: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = { "X-User-Token": token };
    const hash = this.options.userHash;
    const value = typeof hash === "function" ? await hash(token) : hash;
    if (nonBlank(value) !== undefined) headers["X-User-Hash"] = value!;
    return headers;
  }

  /** The headers of a call that acts for its user: its token, vouched for as above. */
  async headers(options: UserCallOptions): Promise<Record<string, string>> {
    return this.userHeaders(await this.userToken(options.userToken));
  }

  /**
   * Reads send the user's identity only when the host vouches for it with a hash: that opens
   * surfaces closed to anonymous users, and anonymous reads stay shareable by caches.
   */
  async readHeaders(options: UserCallOptions): Promise<Record<string, string> | undefined> {
    if (this.options.userHash === undefined && options.userToken === undefined) return undefined;
    return this.headers(options);
  }
}
