package dev.stsresize.render;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/** Writes a document as kubectl's {@code -o json} (2-space indent) or {@code -o yaml} (no leading ---) would. */
public final class DocumentWriter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
            .build());

    private DocumentWriter() {}

    public static String json(JsonNode doc) {
        java.io.StringWriter text = new java.io.StringWriter();
        json(doc, text);
        return text.toString();
    }

    /**
     * The same text written to {@code out} as it is made, which is left open: a plan of thousands of
     * StatefulSets is megabytes, and a String of it would be copied three times before reaching stdout.
     */
    public static void json(JsonNode doc, Writer out) {
        // kubectl's layout: "key": value, two-space indents, and [] / {} for empty containers
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withArrayEmptySeparator("")
                .withObjectEmptySeparator("");
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter(separators)
                .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        try {
            JSON.writer(pp).without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, doc);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String yaml(JsonNode doc) {
        try {
            return YAML.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
