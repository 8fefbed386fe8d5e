import type { FastifyInstance } from "fastify";

/**
 * Lets the routes of `scope` read `application/x-www-form-urlencoded` bodies as flat objects:
 * the forms of mailed pages and RFC 8058 one-click unsubscribes send them.
 */
export function readFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 16 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : body.toString("utf8"))));
  });
}
