import { Text } from "react-native";
import { usePalette } from "../theme.js";

export /** A line of text above the list: a notice (rate limit, thanks) or an alert (failed vote). */
function Notice(props: { text: string; alert?: boolean }) {
  const palette = usePalette();
  return (
    <Text
      accessibilityRole={props.alert ? "alert" : "text"}
      accessibilityLiveRegion="polite"
      style={{
        marginHorizontal: 12,
        marginBottom: 8,
        padding: 10,
        borderRadius: 8,
        borderWidth: 1,
        fontSize: 15,
        color: props.alert ? palette.danger : palette.text2,
        borderColor: props.alert ? palette.dangerBorder : palette.border,
        backgroundColor: props.alert ? palette.dangerBg : palette.card,
      }}
    >
      {props.text}
    </Text>
  );
}
