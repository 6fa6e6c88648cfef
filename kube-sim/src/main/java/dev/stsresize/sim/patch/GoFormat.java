package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Prints a JSON value the way Go's fmt %v prints the decoded interface{}, for error texts copied from Go. */
public final class GoFormat {
    private GoFormat() {}

    public static String value(JsonNode n) {
        if (n == null || n.isNull()) {
            return "<nil>";
        }
        if (n.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            n.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            List<String> parts = new ArrayList<>();
            sorted.forEach((k, v) -> parts.add(k + ":" + value(v)));
            return "map[" + String.join(" ", parts) + "]";
        }
        if (n.isArray()) {
            List<String> parts = new ArrayList<>();
            n.forEach(item -> parts.add(value(item)));
            return "[" + String.join(" ", parts) + "]";
        }
        return n.asText();
    }

    /** Go's %q of a string, for error texts that quote a value. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> b.append(ch < 0x20 || ch == 0x7f ? String.format("\\x%02x", (int) ch) : String.valueOf(ch));
            }
        }
        return b.append('"').toString();
    }

    /** reflect.TypeOf of the value encoding/json (with PreserveInts) decodes, as %s prints it. */
    static String typeName(JsonNode n) {
        if (n == null || n.isNull()) {
            return "%!s(<nil>)";
        }
        if (n.isObject()) {
            return MAP;
        }
        if (n.isArray()) {
            return SLICE;
        }
        if (n.isIntegralNumber()) {
            return "int64";
        }
        if (n.isNumber()) {
            return "float64";
        }
        return n.isTextual() ? "string" : "bool";
    }

    static final String MAP = "map[string]interface {}";
    static final String SLICE = "[]interface {}";
}
