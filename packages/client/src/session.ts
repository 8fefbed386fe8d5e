import { nonBlank } from "./blank.js";
import type { CallOptions, IdempotentCallOptions } from "./call-options.js";
import type { FeedbackClientOptions, TokenTransport } from "./client-options.js";
import { Identity } from "./identity.js";
import { createTransport, type FetchLike, type HttpRequest, type Transport } from "./request.js";
import type { Platform } from "./platform.js";
import type { SeenChangelogStore } from "./seen-changelogs.js";
import type { Timers } from "./timers.js";
import type { UserTokenStore } from "./token-store.js";
import type { PublicAppConfig } from "./types.js";

/** Encodes a path segment (an app key, a request id). */
export const enc = encodeURIComponent;

/** The settings of a client, merged once by its constructor, that the endpoints read (the client's own fields of these names). */
export interface ClientSettings {
  readonly baseUrl: string;
  readonly appKey: string;
  readonly defaultPlatform: Platform;
  readonly timeoutMs: number;
  readonly uploadTimeoutMs: number;
  readonly tokenTransport: TokenTransport;
  readonly tokens: UserTokenStore;
  readonly seenChangelogs: SeenChangelogStore;
  readonly timers: Timers;
}

/**
 * What every endpoint of a `FeedbackClient` works with: its settings, who it speaks for,
 * the SDK's one request path and what the last config read said about verification.
 */
export class ClientSession {
  readonly identity: Identity;
  /** The request path of `request.ts`; every exchange goes through here, so the signed-in user is never left off one. */
  readonly send: Transport;
  /** `verification` of the config last read: whether intake needs the built-in altcha. */
  verification: PublicAppConfig["verification"] | undefined;
  /** Whether a config was read (older servers' configs name no `verification`). */
  configRead = false;

  constructor(
    readonly client: ClientSettings,
    readonly options: FeedbackClientOptions,
    fetch: FetchLike,
  ) {
    this.identity = new Identity(options, client.tokens);
    const transport = createTransport({ baseUrl: client.baseUrl, fetch, timers: client.timers });
    this.send = async <T>(request: HttpRequest) => {
      const sso = await this.identity.ssoToken();
      return transport<T>(sso === undefined ? request : { ...request, headers: { ...request.headers, "X-SSO-Token": sso } });
    };
  }

  /** The path of `rest` below the app's public root, `/api/v1/public/apps/<APP_KEY>/`. */
  appPath(rest: string): string {
    return `/api/v1/public/apps/${enc(this.client.appKey)}/${rest}`;
  }

  /** One JSON exchange within the call's budget; a POST carries the caller's `Idempotency-Key`. */
  async json<T>(request: Omit<HttpRequest, "timeoutMs" | "signal">, options: CallOptions & IdempotentCallOptions): Promise<T> {
    const key = request.method === "POST" ? nonBlank(options.idempotencyKey) : undefined;
    const headers = key === undefined ? request.headers : { ...request.headers, "Idempotency-Key": key };
    const { data } = await this.send<T>({ ...request, headers, signal: options.signal, timeoutMs: options.timeoutMs ?? this.client.timeoutMs });
    return data;
  }
}
