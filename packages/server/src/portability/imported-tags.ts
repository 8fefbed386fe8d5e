import { MAX_TAGS_PER_APP, MAX_TAGS_PER_REQUEST, type TagVisibility } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { createTag, listTags, type TagRow } from "../tags/tags.js";
import { ImportMappingError } from "./import-errors.js";
import type { SourceTag } from "./import-records.js";
import { nameKey } from "./source-values.js";

/** Longest tag name, as the console takes it. */
const MAX_TAG_NAME = 40;
const COLOR = /^#?([0-9a-fA-F]{6})$/;

/**
 * The app's tags an import's tags and categories become. A source tag is the tag `--tag-map`
 * names for it (an empty target leaves it off), else the app's tag of the same name (or whose
 * slug it is), else a new tag with the source's name, colour and visibility (public when the
 * source does not say). A tag this import created public turns team-only when the source also
 * uses that name for a team-only tag: nothing the source kept from its users is shown to them.
 */
export class ImportedTags {
  /** Names of the tags this import created. */
  readonly created: string[] = [];
  readonly #tags: TagRow[];
  readonly #fresh = new Set<string>();
  /** Problems by tag name, each reported once. */
  readonly #problems = new Map<string, string>();

  private constructor(
    private readonly trx: Kysely<Database>,
    private readonly clock: Clock,
    private readonly appId: string,
    tags: TagRow[],
    /** Source name key → the name of the tag it becomes, or null to leave it off. */
    private readonly mapped: Map<string, string | null>,
    private readonly note: (message: string) => void,
  ) {
    this.#tags = tags;
  }

  /** Reads the app's tags and checks `--tag-map`; throws {@link ImportMappingError} for a target no tag could have. */
  static async open(trx: Kysely<Database>, clock: Clock, appId: string, map: Record<string, string>, note: (message: string) => void): Promise<ImportedTags> {
    const mapped = new Map<string, string | null>();
    for (const [from, to] of Object.entries(map)) {
      const name = to.trim();
      if ([...name].length > MAX_TAG_NAME) throw new ImportMappingError(`--tag-map: "${to}" is longer than ${MAX_TAG_NAME} characters, the most a tag's name may have`);
      mapped.set(nameKey(from), name === "" ? null : name);
    }
    return new ImportedTags(trx, clock, appId, await listTags(trx, appId), mapped, note);
  }

  /** Source tags that could not become tags here, one message each; the import must not be kept when there are any. */
  get problems(): string[] {
    return [...this.#problems.values()];
  }

  /**
   * The ids of the tags a request of the source carries, in the source's order, each once. Past
   * {@link MAX_TAGS_PER_REQUEST}, the rest are left off (the caller's `created` event keeps them all).
   */
  async resolve(tags: readonly SourceTag[], at: string): Promise<string[]> {
    const ids: string[] = [];
    for (const tag of tags) {
      const id = await this.#place(tag, at);
      if (id !== null && !ids.includes(id)) ids.push(id);
    }
    if (ids.length > MAX_TAGS_PER_REQUEST) {
      this.note(`${at}: ${ids.length} tags, more than the ${MAX_TAGS_PER_REQUEST} a request may carry: the first ${MAX_TAGS_PER_REQUEST} are put on it (all are kept in its created event)`);
      return ids.slice(0, MAX_TAGS_PER_REQUEST);
    }
    return ids;
  }

  async #place(tag: SourceTag, at: string): Promise<string | null> {
    const source = tag.name.trim();
    if (source === "") return null;
    const mapped = this.mapped.get(nameKey(source));
    if (mapped === null) return null;
    const name = mapped ?? source;
    const key = nameKey(name);
    const existing = this.#tags.find((t) => nameKey(t.name) === key) ?? this.#tags.find((t) => t.slug === key);
    if (existing !== undefined) {
      if (tag.visibility === "team" && existing.visibility === "public" && this.#fresh.has(existing.id)) {
        await this.trx.updateTable("tags").set({ visibility: "team", updatedAt: isoNow(this.clock) }).where("id", "=", existing.id).execute();
        existing.visibility = "team";
      }
      return existing.id;
    }
    if ([...name].length > MAX_TAG_NAME) {
      return this.#problem(key, `tag "${name}" (${at}) is longer than ${MAX_TAG_NAME} characters, the most a tag's name may have: give it a shorter one with --tag-map "${name}=<name>"`);
    }
    if (this.#tags.length >= MAX_TAGS_PER_APP) {
      return this.#problem(key, `tag "${name}" (${at}) would pass the ${MAX_TAGS_PER_APP} tags an app may have: leave tags off or merge them with --tag-map "${name}=<tag>"`);
    }
    const color = COLOR.exec(tag.color ?? "")?.[1];
    const visibility: TagVisibility = tag.visibility ?? "public";
    const row = await createTag(this.trx, this.clock, this.appId, { name, visibility, color: color === undefined ? null : `#${color.toUpperCase()}` });
    this.#tags.push(row);
    this.#fresh.add(row.id);
    this.created.push(row.name);
    return row.id;
  }

  #problem(key: string, message: string): null {
    if (!this.#problems.has(key)) this.#problems.set(key, message);
    return null;
  }
}
