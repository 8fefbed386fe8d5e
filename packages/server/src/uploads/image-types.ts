import { ApiError } from "../http/errors.js";
import { extensionOf } from "./filenames.js";

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
