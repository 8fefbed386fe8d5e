/** A public user profile (§7.7); its fields differ between server versions. */
export interface UserProfile {
  profile: Record<string, unknown>;
  [field: string]: unknown;
}
