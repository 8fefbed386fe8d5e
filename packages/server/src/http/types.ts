import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from "fastify";

/** The Fastify instance with TypeBox inference, as every route module receives it. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Route body limits: public JSON intake 256 KB, console JSON 1 MB. */
export const PUBLIC_BODY_LIMIT = 256 * 1024;
export const CONSOLE_BODY_LIMIT = 1024 * 1024;
