import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { GENEROUS_RATE_LIMITS, createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

type Client = ReturnType<typeof consoleClient>;
type Role = "owner" | "admin" | "member";

describe.each(testDialects())("who may change whom, on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
  });
  afterAll(() => t.close());

  let seq = 0;
  /** A workspace with two owners, an admin and a member, each signed in with their own token. */
  async function team() {
    const slug = `team-${++seq}`;
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, slug);
    const people = {} as Record<"owner" | "owner2" | "admin" | "member", { id: string; userId: string; email: string; api: Client }>;
    for (const [name, role] of [["owner", "owner"], ["owner2", "owner"], ["admin", "admin"], ["member", "member"]] as const) {
      const email = `${name}@${slug}.example`;
      const added = await ws.console.post(`/workspaces/${ws.wsId}/members`, { email, role });
      expect(added.status).toBe(201);
      const token = await ws.console.post(`/users/${added.body.member.userId}/tokens`, { name });
      people[name] = { id: added.body.member.id, userId: added.body.member.userId, email, api: consoleClient(t.app, `Bearer ${token.body.token}`) };
    }
    const roles = async () => {
      const list = await ws.console.get(`/workspaces/${ws.wsId}/members`);
      return Object.fromEntries(list.body.members.map((m: { email: string; role: Role }) => [m.email.split("@")[0], m.role]));
    };
    return { wsId: ws.wsId, operator: ws.console, slug, ...people, roles };
  }

  const refused = (res: { status: number; body: { code: string } }) => {
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("capability_required");
  };

  async function acceptInvite(token: string, password = "a long enough password") {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/console/auth/accept-invite", payload: { token, password } });
    return { status: res.statusCode, body: res.json() };
  }

  it("refuses an admin who demotes, re-roles by email or removes an owner, and changes nothing", async () => {
    const w = await team();
    const before = await w.roles();
    expect(before).toEqual({ owner: "owner", owner2: "owner", admin: "admin", member: "member" });
    for (const role of ["admin", "member"] as const) refused(await w.admin.api.put(`/workspaces/${w.wsId}/members/${w.owner2.id}`, { role }));
    refused(await w.admin.api.delete(`/workspaces/${w.wsId}/members/${w.owner2.id}`));
    refused(await w.admin.api.post(`/workspaces/${w.wsId}/members`, { email: w.owner2.email, role: "member" }));
    refused(await w.admin.api.post(`/workspaces/${w.wsId}/members`, { email: w.owner2.email.toUpperCase(), role: "admin" }));
    expect(await w.roles()).toEqual(before);
  });

  it("refuses an admin who makes anyone owner, themselves included", async () => {
    const w = await team();
    refused(await w.admin.api.put(`/workspaces/${w.wsId}/members/${w.admin.id}`, { role: "owner" }));
    refused(await w.admin.api.put(`/workspaces/${w.wsId}/members/${w.member.id}`, { role: "owner" }));
    refused(await w.admin.api.post(`/workspaces/${w.wsId}/members`, { email: w.admin.email, role: "owner" }));
    refused(await w.admin.api.post(`/workspaces/${w.wsId}/members`, { email: `new@${w.slug}.example`, role: "owner" }));
    expect(await w.roles()).toEqual({ owner: "owner", owner2: "owner", admin: "admin", member: "member" });
  });

  it("lets a member change nobody", async () => {
    const w = await team();
    for (const target of [w.owner, w.admin, w.member]) {
      for (const role of ["owner", "admin", "member"] as const) refused(await w.member.api.put(`/workspaces/${w.wsId}/members/${target.id}`, { role }));
      refused(await w.member.api.delete(`/workspaces/${w.wsId}/members/${target.id}`));
    }
    refused(await w.member.api.post(`/workspaces/${w.wsId}/members`, { email: `x@${w.slug}.example`, role: "member" }));
    refused(await w.member.api.post(`/workspaces/${w.wsId}/invitations`, { email: `x@${w.slug}.example`, role: "member" }));
    expect(await w.roles()).toEqual({ owner: "owner", owner2: "owner", admin: "admin", member: "member" });
  });

  it("lets an admin manage admins and members, and an owner manage owners", async () => {
    const w = await team();
    expect((await w.admin.api.put(`/workspaces/${w.wsId}/members/${w.member.id}`, { role: "admin" })).status).toBe(200);
    expect((await w.admin.api.put(`/workspaces/${w.wsId}/members/${w.member.id}`, { role: "member" })).status).toBe(200);
    expect((await w.admin.api.post(`/workspaces/${w.wsId}/members`, { email: `helper@${w.slug}.example`, role: "admin" })).status).toBe(201);
    expect((await w.owner.api.put(`/workspaces/${w.wsId}/members/${w.owner2.id}`, { role: "admin" })).status).toBe(200);
    expect((await w.owner.api.put(`/workspaces/${w.wsId}/members/${w.admin.id}`, { role: "owner" })).status).toBe(200);
    expect((await w.owner.api.delete(`/workspaces/${w.wsId}/members/${w.admin.id}`)).status).toBe(200);
    expect(await w.roles()).toEqual({ owner: "owner", owner2: "admin", member: "member", helper: "admin" });
    // The last owner still cannot leave.
    for (const leave of [
      await w.owner.api.put(`/workspaces/${w.wsId}/members/${w.owner.id}`, { role: "admin" }),
      await w.owner.api.delete(`/workspaces/${w.wsId}/members/${w.owner.id}`),
      await w.owner.api.post(`/workspaces/${w.wsId}/members`, { email: w.owner.email, role: "member" }),
    ]) {
      expect(leave.status).toBe(400);
      expect(leave.body.code).toBe("last_owner");
    }
    expect((await w.roles()).owner).toBe("owner");
  });

  it("keeps one owner when the last two step down at the same moment", async () => {
    // Each checks "is there another owner?" before the other's change commits: without a lock
    // on PostgreSQL both pass and the workspace is left with none.
    for (let round = 0; round < 6; round++) {
      const w = await team();
      const leave = (who: typeof w.owner) =>
        round % 2 === 0
          ? who.api.put(`/workspaces/${w.wsId}/members/${who.id}`, { role: "admin" })
          : who.api.delete(`/workspaces/${w.wsId}/members/${who.id}`);
      const answers = await Promise.all([leave(w.owner), leave(w.owner2)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
      expect(answers.find((a) => a.status === 400)?.body).toEqual({ error: "A workspace needs at least one owner", code: "last_owner" });
      expect(Object.values(await w.roles()).filter((role) => role === "owner")).toHaveLength(1);
    }
  });

  it("keeps invitations that touch an owner for owners", async () => {
    const w = await team();
    const base = `/workspaces/${w.wsId}/invitations`;
    refused(await w.admin.api.post(base, { email: `boss@${w.slug}.example`, role: "owner" }));
    // Accepting re-roles an existing member: an invitation to an owner's email is an owner's call.
    for (const role of ["owner", "admin", "member"] as const) refused(await w.admin.api.post(base, { email: w.owner2.email, role }));
    const ownerInvite = await w.owner.api.post(base, { email: `boss@${w.slug}.example`, role: "owner" });
    expect(ownerInvite.status).toBe(201);
    refused(await w.admin.api.delete(`${base}/${ownerInvite.body.invitation.id}`));
    expect((await w.owner.api.get(base)).body.invitations.map((i: { id: string }) => i.id)).toContain(ownerInvite.body.invitation.id);
    const memberInvite = await w.admin.api.post(base, { email: `new@${w.slug}.example`, role: "member" });
    expect((await w.admin.api.delete(`${base}/${memberInvite.body.invitation.id}`)).status).toBe(200);
    expect((await w.owner.api.delete(`${base}/${ownerInvite.body.invitation.id}`)).status).toBe(200);
  });

  it("checks the inviter's authority when the invitation is accepted, and never lowers a role", async () => {
    const w = await team();
    const base = `/workspaces/${w.wsId}/invitations`;
    // An owner invites an owner, then is demoted: the link no longer makes owners.
    const fromOwner = await w.owner2.api.post(base, { email: `heir@${w.slug}.example`, role: "owner" });
    expect((await w.owner.api.put(`/workspaces/${w.wsId}/members/${w.owner2.id}`, { role: "admin" })).status).toBe(200);
    const stale = await acceptInvite(fromOwner.body.token);
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe("invalid_invitation");
    // An admin invites a member as member; the member is made owner meanwhile; accepting keeps owner.
    const fromAdmin = await w.admin.api.post(base, { email: w.member.email, role: "member" });
    expect(fromAdmin.status).toBe(201);
    expect((await w.owner.api.put(`/workspaces/${w.wsId}/members/${w.member.id}`, { role: "owner" })).status).toBe(200);
    // Still without a password, that owner's account is not the admin's to hand out.
    const taken = await acceptInvite(fromAdmin.body.token, "whoever holds the link");
    expect(taken.status).toBe(400);
    expect(taken.body.code).toBe("invalid_invitation");
    // With an owner's invitation they set a password; the admin's link then only adds nothing.
    const fromOwner2 = await w.owner.api.post(base, { email: w.member.email, role: "member" });
    expect((await acceptInvite(fromOwner2.body.token, "the member's own password")).status).toBe(200);
    expect((await acceptInvite(fromAdmin.body.token, "the member's own password")).status).toBe(200);
    expect((await w.roles()).member).toBe("owner");
  });

  it("does not let an invitation set the password of someone another workspace trusts", async () => {
    const mine = await team();
    const theirs = await team();
    // theirs.owner2 has no password (added by email); mine.admin invites that email to their own workspace.
    const invite = await mine.admin.api.post(`/workspaces/${mine.wsId}/invitations`, { email: theirs.owner2.email, role: "member" });
    expect(invite.status).toBe(201);
    const takeover = await acceptInvite(invite.body.token, "the attacker's password");
    expect(takeover.status).toBe(400);
    expect(takeover.body.code).toBe("invalid_invitation");
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/console/auth/login",
      payload: { email: theirs.owner2.email, password: "the attacker's password" },
    });
    expect(login.statusCode).toBe(401);
    const mineMembers = await mine.operator.get(`/workspaces/${mine.wsId}/members`);
    expect(mineMembers.body.members.map((m: { email: string }) => m.email)).not.toContain(theirs.owner2.email);
    // An owner of theirs may invite them there, which is how a password-less owner gets one.
    const own = await theirs.owner.api.post(`/workspaces/${theirs.wsId}/invitations`, { email: theirs.owner2.email, role: "owner" });
    expect((await acceptInvite(own.body.token)).status).toBe(200);
    expect((await theirs.roles()).owner2).toBe("owner");
  });

  it("answers 404 for members and workspaces outside the caller's workspace, and changes nothing", async () => {
    const mine = await team();
    const theirs = await team();
    for (const role of ["owner", "admin", "member"] as const) {
      const res = await mine.owner.api.put(`/workspaces/${mine.wsId}/members/${theirs.member.id}`, { role });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("member_not_found");
    }
    expect((await mine.admin.api.delete(`/workspaces/${mine.wsId}/members/${theirs.owner2.id}`)).body.code).toBe("member_not_found");
    for (const call of [
      mine.owner.api.put(`/workspaces/${theirs.wsId}/members/${theirs.owner2.id}`, { role: "member" }),
      mine.owner.api.delete(`/workspaces/${theirs.wsId}/members/${theirs.owner2.id}`),
      mine.owner.api.post(`/workspaces/${theirs.wsId}/members`, { email: mine.owner.email, role: "owner" }),
      mine.owner.api.post(`/workspaces/${theirs.wsId}/invitations`, { email: mine.owner.email, role: "owner" }),
    ]) {
      expect((await call).body.code).toBe("workspace_not_found");
    }
    expect(await theirs.roles()).toEqual({ owner: "owner", owner2: "owner", admin: "admin", member: "member" });
  });
});
