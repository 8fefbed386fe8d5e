import type { Role } from "@tidings/protocol";
import { ApiError } from "../http/errors.js";

/** What a console action needs (wire-contract §11.3). */
export type Capability =
  | "workspace.read"
  | "triage"
  | "content.manage"
  | "changelog.publish"
  | "app.configure"
  | "members.manage"
  | "billing.manage"
  | "workspace.delete";

const EVERY_ROLE: readonly Role[] = ["owner", "admin", "member"];
const MANAGERS: readonly Role[] = ["owner", "admin"];

const GRANTS: Record<Capability, readonly Role[]> = {
  "workspace.read": EVERY_ROLE,
  triage: EVERY_ROLE,
  "content.manage": EVERY_ROLE,
  "changelog.publish": MANAGERS,
  "app.configure": MANAGERS,
  "members.manage": MANAGERS,
  "billing.manage": MANAGERS,
  "workspace.delete": ["owner"],
};

/** True when `role` grants `capability`. */
export function can(role: Role, capability: Capability): boolean {
  return GRANTS[capability].includes(role);
}

/** Throws 403 `capability_required` unless `role` grants `capability`. */
export function requireCapability(role: Role, capability: Capability): void {
  if (!can(role, capability)) {
    throw new ApiError("capability_required", {
      message: `Your role (${role}) does not allow this action (${capability})`,
      details: { capability, role },
    });
  }
}
