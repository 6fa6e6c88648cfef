package dev.stsresize.sim.state;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads and writes cluster state: multi-document YAML or JSON, Lists expanded (e.g. the output of
 * {@code kubectl get sts,pvc,pv,sc,pods -A -o yaml}). Hostile input is refused with one clear
 * paragraph ({@link StateFileException}): alias bombs, absurd nesting, files over {@value #MAX_BYTES} bytes.
 */
public final class StateFiles {
    static final long MAX_BYTES = 64L * 1024 * 1024;
    private static final int MAX_ALIASES = 100;
    private static final int MAX_DEPTH = 200;
    private static final ObjectMapper YAML;
    private static final ObjectMapper YAML_OUT = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());

    static {
        LoaderOptions loader = new LoaderOptions();
        loader.setMaxAliasesForCollections(MAX_ALIASES);
        loader.setNestingDepthLimit(MAX_DEPTH);
        loader.setCodePointLimit((int) MAX_BYTES);
        YAML = new ObjectMapper(YAMLFactory.builder().loaderOptions(loader)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build()).build());
    }

    private StateFiles() {}

    /** Every object of the files, Lists expanded, in file order. */
    public static List<ObjectNode> read(List<Path> files) {
        List<ObjectNode> out = new ArrayList<>();
        for (Path f : files) {
            out.addAll(read(f));
        }
        return out;
    }

    public static List<ObjectNode> read(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                throw new StateFileException("state file " + file + " does not exist or is not a regular file; pass a YAML or JSON "
                        + "file of Kubernetes objects, e.g. the output of 'kubectl get sts,pvc,pv,sc,pods -A -o yaml'.");
            }
            if (Files.size(file) > MAX_BYTES) {
                throw new StateFileException("state file " + file + " is " + Files.size(file) + " bytes, more than the " + MAX_BYTES
                        + " a state file may have; split it into several --state files.");
            }
            refuseAliasBombs(file);
            List<ObjectNode> out = new ArrayList<>();
            int doc = 0;
            try (JsonParser p = YAML.getFactory().createParser(file.toFile());
                    MappingIterator<JsonNode> it = YAML.readValues(p, JsonNode.class)) {
                while (it.hasNextValue()) {
                    doc++;
                    JsonNode n = it.nextValue();
                    if (n == null || n.isNull() || n.isMissingNode()) {
                        continue;
                    }
                    expand(file, doc, n, out);
                }
            }
            return out;
        } catch (IOException | RuntimeException e) {
            if (e instanceof StateFileException u) {
                throw u;
            }
            throw new StateFileException("state file " + file + " cannot be read: " + reason(e) + ". Fix the file (YAML or JSON "
                    + "Kubernetes objects, one per document or in a List) and run again.", e);
        }
    }

    /**
     * Jackson does not expand YAML aliases, but whatever reads the objects later might: more than a
     * handful of aliases in a state file is refused outright (SnakeYAML event scan, no expansion).
     */
    private static void refuseAliasBombs(Path file) throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit((int) MAX_BYTES);
        options.setNestingDepthLimit(MAX_DEPTH);
        int aliases = 0;
        try (var reader = Files.newBufferedReader(file)) {
            for (org.yaml.snakeyaml.events.Event e : new org.yaml.snakeyaml.Yaml(options).parse(reader)) {
                if (e instanceof org.yaml.snakeyaml.events.AliasEvent && ++aliases > MAX_ALIASES) {
                    throw new StateFileException("state file " + file + " uses more than " + MAX_ALIASES + " YAML aliases (an alias bomb?); "
                            + "write the objects out in full.");
                }
            }
        } catch (org.yaml.snakeyaml.error.YAMLException e) {
            // a syntax error: the Jackson reader below reports it with the document number
        }
    }

    private static void expand(Path file, int doc, JsonNode n, List<ObjectNode> out) {
        if (!(n instanceof ObjectNode o)) {
            throw new StateFileException("state file " + file + ", document " + doc + ", is not an object; each document must be "
                    + "a Kubernetes object or a List of them.");
        }
        if (o.path("kind").asText().endsWith("List") && o.get("items") instanceof ArrayNode items) {
            for (JsonNode item : items) {
                expand(file, doc, item, out);
            }
            return;
        }
        if (o.path("apiVersion").asText("").isEmpty() || o.path("kind").asText("").isEmpty()
                || o.path("metadata").path("name").asText("").isEmpty()) {
            throw new StateFileException("state file " + file + ", document " + doc + ", lacks apiVersion, kind or metadata.name; "
                    + "every object needs all three.");
        }
        out.add(o);
    }

    private static String reason(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String first = m.lines().findFirst().orElse(m);
        if (first.contains("aliases")) {
            return "it uses more than " + MAX_ALIASES + " YAML aliases (an alias bomb?)";
        }
        if (first.toLowerCase(java.util.Locale.ROOT).contains("nesting depth")) {
            return "it nests deeper than " + MAX_DEPTH + " levels";
        }
        return first;
    }

    /** Writes objects as one YAML v1 List, readable again with {@link #read(Path)}. */
    public static void write(Path file, List<ObjectNode> objects) {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        list.put("apiVersion", "v1");
        list.put("kind", "List");
        ArrayNode items = list.putArray("items");
        objects.forEach(items::add);
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            YAML_OUT.writeValue(tmp.toFile(), list);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new StateFileException("cannot write the state to " + file + ": " + e.getMessage() + "; check the directory exists and is writable.", e);
        }
    }
}
