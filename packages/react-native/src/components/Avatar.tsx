import { avatarInitial } from "@tidings/react-core";
import { useState } from "react";
import { Image, Text, View } from "react-native";
import { usePalette } from "../theme.js";

/** Props of {@link Avatar}. */
export interface AvatarProps {
  /** The person's name; its first character (a whole emoji or accented letter) is the fallback. */
  name: string;
  /** The picture; when absent or when it fails to load, the initial shows. @default undefined */
  uri?: string | undefined;
  /** Diameter in points. @default 48 */
  size?: number | undefined;
}

/**
 * A round profile picture, else the name's initial on the theme's chip colour. Decorative: the
 * name beside it is what screen readers read.
 *
 * @example
 * ```tsx
 * <Avatar name="Ada" uri="https://img.example/ada.png" size={64} />
 * ```
 */
export function Avatar(props: AvatarProps) {
  const palette = usePalette();
  const size = props.size ?? 48;
  const [failed, setFailed] = useState<string | undefined>(undefined);
  const uri = props.uri !== undefined && props.uri !== "" && failed !== props.uri ? props.uri : undefined;
  const frame = { width: size, height: size, borderRadius: size / 2 };
  return (
    <View accessible={false} importantForAccessibility="no-hide-descendants" accessibilityElementsHidden style={[frame, { overflow: "hidden", alignItems: "center", justifyContent: "center", backgroundColor: palette.chipBg }]}>
      {uri !== undefined ? (
        <Image testID="tidings-avatar-image" source={{ uri }} style={frame} onError={() => setFailed(uri)} />
      ) : (
        <Text testID="tidings-avatar-initial" style={{ color: palette.chipText, fontSize: Math.round(size * 0.42), fontWeight: "700" }}>
          {avatarInitial(props.name)}
        </Text>
      )}
    </View>
  );
}
