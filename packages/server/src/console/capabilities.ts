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

type RoleChange = { from?: Role | undefined; to?: Role | undefined };

/**
 * True when `actor` may move a membership from `from` (absent for someone not yet a member) to
 * `to` (absent for a removal). Owners are owners' business alone: making one, changing one's role
 * and removing one all need an owner, so an admin can never outrank those who gave them their role.
 */
export function mayChangeRole(actor: Role, change: RoleChange): boolean {
  return actor === "owner" || (change.from !== "owner" && change.to !== "owner");
}

/**
 * Throws 403 `capability_required` unless {@link mayChangeRole}.
 *
 * @example
 * ```ts
 * requireRoleAuthority(role, { from: current.role, to: request.body.role });
 * ```
 */
export function requireRoleAuthority(actor: Role, change: RoleChange): void {
  if (mayChangeRole(actor, change)) return;
  throw new ApiError("capability_required", {
    message: change.from === "owner" ? "Only an owner may change or remove an owner" : "Only an owner may make someone an owner",
    details: { capability: "members.manage", role: actor },
  });
}

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

/** The higher of two roles (`b` when `a` is absent). */
export function higherRole(a: Role | undefined, b: Role): Role {
  return a !== undefined && RANK[a] > RANK[b] ? a : b;
}
