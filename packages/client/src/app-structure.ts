/** One of an app's boards the caller may see. */
export interface Board {
  id: string;
  name: string;
  slug: string;
  description: string;
  position: number;
  /** `private` boards are shown only to identified users the team admits. */
  visibility: "public" | "private";
  /** Proposals that name no board go to the default one. */
  isDefault: boolean;
}

/** A roadmap column (§7.2). */
export interface BoardColumn {
  id: string;
  appId: string;
  name: string;
  slug: string;
  position: number;
  isVisible: boolean;
  isSystem: boolean;
  kind: "pending_review" | "normal" | "done" | (string & {});
  color?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A release version (§7.3). */
export interface AppVersion {
  id: string;
  appId: string;
  label: string;
  position: number;
  released: boolean;
  releasedAt?: string | null;
  description?: string | null;
  createdAt: string;
  updatedAt: string;
}
