import { ApiError } from "../http/errors.js";
import { extensionOf } from "./filenames.js";

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
