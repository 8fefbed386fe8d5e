import { IdParam } from "@tidings/protocol";
import Type from "typebox";

/** The `:wsId` of every console route under `/workspaces/:wsId`. */
export const WorkspaceParams = Type.Object({ wsId: IdParam("ws") });
