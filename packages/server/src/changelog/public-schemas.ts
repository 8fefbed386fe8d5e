import { ErrorBodySchema } from "@tidings/protocol";
import Type from "typebox";

/** What the changelog's public routes share: their OpenAPI tag, params and error answers. */
export const tags = ["public: changelog"];
export const Params = Type.Object({ appKey: Type.String({ maxLength: 128 }) });
export const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 2000 })) });
export const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 405: ErrorBodySchema, 429: ErrorBodySchema };
