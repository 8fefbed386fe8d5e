import { ApiError } from "../http/errors.js";
import { dropLoneSurrogates, truncateText } from "@tidings/protocol";

/** The image formats the server stores, by canonical MIME type. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif", "image/heic"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** How many leading bytes {@link sniffImage} needs. */
export const SNIFF_BYTES = 16;

const MIME_ALIASES: Record<string, ImageType> = {
  "image/png": "image/png",
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "image/webp": "image/webp",
  "image/gif": "image/gif",
  "image/heic": "image/heic",
  "image/heif": "image/heic",
  "image/heic-sequence": "image/heic",
  "image/heif-sequence": "image/heic",
};

const EXTENSION_TYPES: Record<string, ImageType> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  jpe: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  heic: "image/heic",
  heif: "image/heic",
};

const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]);

/**
 * The image format the bytes start with, or undefined when they are none of ours.
 *
 * @example
 * ```ts
 * sniffImage(Buffer.from("89504e470d0a1a0a", "hex")); // "image/png"
 * ```
 */
export function sniffImage(head: Buffer): ImageType | undefined {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString("latin1");
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (ascii(4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(8, 12))) return "image/heic";
  return undefined;
}

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot <= 0 ? "" : filename.slice(dot + 1).toLowerCase();
}

function isSvg(mimeType: string, filename: string, head: Buffer): boolean {
  const start = head.toString("utf8").replace(/^\uFEFF/, "").trimStart().toLowerCase();
  return mimeType === "image/svg+xml" || extensionOf(filename) === "svg" || extensionOf(filename) === "svgz" || start.startsWith("<svg") || start.startsWith("<?xml");
}

const SVG_REFUSAL = "SVG images are not supported. Upload a PNG, JPEG, WebP, GIF or HEIC image.";

/**
 * The image type an upload claims through its part's Content-Type and its file name, refusing
 * SVG and anything else that is not PNG, JPEG, WebP, GIF or HEIC (415) before any byte is read.
 */
export function claimedImageType(mimeType: string, filename: string): ImageType | undefined {
  if (isSvg(mimeType, filename, Buffer.alloc(0))) throw new ApiError("unsupported_image_type", { message: SVG_REFUSAL });
  const byMime = MIME_ALIASES[mimeType];
  const byExtension = EXTENSION_TYPES[extensionOf(filename)];
  const generic = mimeType === "" || mimeType === "application/octet-stream";
  if (!generic && byMime === undefined) throw new ApiError("unsupported_image_type");
  if (byMime !== undefined && byExtension !== undefined && byMime !== byExtension) {
    throw new ApiError("unsupported_image_type", { message: `File name and declared type (${mimeType}) disagree.` });
  }
  return byMime ?? byExtension;
}

/**
 * Checks the first bytes of an image upload against what it claimed: the sniffed format must
 * exist and equal the claim (when there is one). Answers the type to store; throws 415.
 *
 * @example
 * ```ts
 * checkImageBytes(head, "image/jpeg", "shot.jpg"); // throws when head is a PNG
 * ```
 */
export function checkImageBytes(head: Buffer, claimed: ImageType | undefined, filename: string): ImageType {
  if (isSvg("", filename, head)) throw new ApiError("unsupported_image_type", { message: SVG_REFUSAL });
  const actual = sniffImage(head);
  if (actual === undefined) throw new ApiError("unsupported_image_type", { message: "File content is not a PNG, JPEG, WebP, GIF or HEIC image." });
  if (claimed !== undefined && claimed !== actual) {
    throw new ApiError("unsupported_image_type", { message: `File content does not match declared image type (${claimed}).` });
  }
  return actual;
}

/** Extensions of programs and scripts an operating system would run; never stored. */
const EXECUTABLE_EXTENSIONS = new Set(
  (
    "exe dll com bat cmd msi msp mst scr pif cpl sys drv ocx vb vbs vbe js jse mjs wsf wsh ws hta ps1 psm1 psd1 " +
    "reg lnk inf sct gadget application appref-ms msc jar class war apk aab xapk ipa app dmg pkg mpkg deb rpm " +
    "sh bash zsh csh ksh fish command run bin elf so dylib out action workflow scpt applescript msix msixbundle appx appxbundle"
  ).split(" "),
);

/** The executable extension of `filename` (last one, or a trailing `.exe.` style trick), or undefined. */
export function executableExtension(filename: string): string | undefined {
  const ext = extensionOf(filename.replace(/[.\s]+$/, ""));
  return EXECUTABLE_EXTENSIONS.has(ext) ? ext : undefined;
}

/** Throws 400 `executable_extension_prohibited` for a file name an OS would run. */
export function refuseExecutableName(filename: string): void {
  const ext = executableExtension(filename);
  if (ext !== undefined) {
    throw new ApiError("executable_extension_prohibited", { message: `Executable files (.${ext}) cannot be uploaded` });
  }
}

/** Throws 400 `executable_extension_prohibited` when the bytes are a native executable (PE, ELF, Mach-O). */
export function refuseExecutableBytes(head: Buffer): void {
  const magic = head.subarray(0, 4).toString("hex");
  const executable =
    head.subarray(0, 2).toString("latin1") === "MZ" ||
    magic === "7f454c46" ||
    ["feedface", "feedfacf", "cefaedfe", "cffaedfe"].includes(magic);
  if (executable) throw new ApiError("executable_extension_prohibited", { message: "Executable files cannot be uploaded" });
}

/** Data types a stored object keeps as its Content-Type; anything else is served as octet-stream. */
const SAFE_OBJECT_TYPES = new Set([
  "text/plain",
  "text/csv",
  "application/json",
  "application/x-ndjson",
  "application/zip",
  "application/gzip",
  "application/x-gzip",
  "application/x-tar",
  "application/pdf",
  "application/octet-stream",
  ...IMAGE_TYPES,
]);

/** The Content-Type an object upload is stored and served with. */
export function objectMimeType(declared: string): string {
  const base = declared.split(";")[0]!.trim().toLowerCase();
  return SAFE_OBJECT_TYPES.has(base) ? base : "application/octet-stream";
}

/** The longest file name stored, in UTF-16 code units (so 200 letters, or 100 astral emoji). */
export const MAX_FILENAME_LENGTH = 200;
/** A longer tail after the last dot is not kept as an extension when a name is shortened. */
const MAX_EXTENSION_LENGTH = 20;

/**
 * `name` cut to {@link MAX_FILENAME_LENGTH} on grapheme boundaries, keeping its extension (as
 * written) when it has a short one and the stem keeps at least one character.
 */
function shortenFilename(name: string): string {
  if (name.length <= MAX_FILENAME_LENGTH) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot) : "";
  if (extension.length > 1 && extension.length <= MAX_EXTENSION_LENGTH) {
    const stem = truncateText(name.slice(0, dot), MAX_FILENAME_LENGTH - extension.length);
    if (stem !== "") return stem + extension;
  }
  return truncateText(name, MAX_FILENAME_LENGTH);
}

/**
 * A file name safe to store and to put in `Content-Disposition`: the last path segment only,
 * without lone surrogates, control, bidi-override and reserved characters, at most
 * {@link MAX_FILENAME_LENGTH} UTF-16 units, cut between grapheme clusters (keeping the extension).
 * ZWJ and ZWNJ stay: emoji sequences and Persian or Indic names need them.
 *
 * @example
 * ```ts
 * sanitizeFilename("../../etc/passwd"); // "passwd"
 * sanitizeFilename("C:\\Users\\me\\shot.png"); // "shot.png"
 * sanitizeFilename(`a${"🦄".repeat(150)}.txt`); // "a" + 97 × "🦄" + ".txt"
 * ```
 */
export function sanitizeFilename(raw: string | undefined, fallback = "file"): string {
  const last = dropLoneSurrogates(raw ?? "").split(/[/\\]/).pop() ?? "";
  const name = last
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f"*:<>?|]/g, "")
    .replace(/[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, "")
    .replace(/^[\s.]+/, "")
    .trimEnd();
  const short = shortenFilename(name).trimEnd();
  return short === "" ? fallback : short;
}
