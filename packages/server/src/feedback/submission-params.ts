import { IdParam } from "@tidings/protocol";
import Type from "typebox";

/** The `:wsId/…/:id` of the routes of one submission. */
export const SubmissionParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("sub") });
export const tags = ["console: feedback inbox"];
