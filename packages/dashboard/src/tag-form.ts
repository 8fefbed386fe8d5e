import { textLength, type CreateTagBody, type Tag, type TagVisibility } from "@tidings/protocol";
import { t } from "./i18n/t.js";
import type { FieldErrors } from "./settings-form.js";

/** The tag form's state; an empty colour means none. */
export interface TagForm {
  name: string;
  slug: string;
  color: string;
  visibility: TagVisibility;
}

/** The form of a new tag. */
export const EMPTY_TAG_FORM: TagForm = { name: "", slug: "", color: "", visibility: "public" };

/** The form for a tag as the server describes it. */
export function formFromTag(tag: Tag): TagForm {
  return { name: tag.name, slug: tag.slug, color: tag.color ?? "", visibility: tag.visibility };
}

/**
 * The checks the server makes on a tag, keyed by body path; an empty object means the form may
 * be sent.
 *
 * @example
 * ```ts
 * validateTag({ ...EMPTY_TAG_FORM, name: "UI", color: "red" }); // { color: ["Enter a colour as #rrggbb, or leave it empty."] }
 * ```
 */
export function validateTag(form: TagForm): FieldErrors {
  const errors: FieldErrors = {};
  if (form.name.trim() === "") errors.name = [t("validation.required")];
  else if (textLength(form.name.trim()) > 40) errors.name = [t("validation.tooLong", { max: 40 })];
  const slug = form.slug.trim();
  if (slug !== "" && (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length < 2 || slug.length > 64)) errors.slug = [t("validation.slug")];
  if (form.color.trim() !== "" && !/^#[0-9a-fA-F]{6}$/.test(form.color.trim())) errors.color = [t("validation.color")];
  return errors;
}

/** The body that creates or patches a tag (a valid form: see {@link validateTag}). */
export function tagBody(form: TagForm): CreateTagBody {
  const slug = form.slug.trim();
  const color = form.color.trim().toLowerCase();
  return { name: form.name.trim(), ...(slug === "" ? {} : { slug }), color: color === "" ? null : color, visibility: form.visibility };
}
