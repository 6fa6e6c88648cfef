package dev.stsresize.manifest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;

/**
 * Splits one input into documents: multi-document YAML (comments, empty documents, anchors and
 * aliases, merge keys), a stream of JSON values, and {@code kind: List} (or any {@code *List})
 * flattened into its items. Each object becomes a raw Jackson tree, with its {@link Source}.
 *
 * <p>YAML goes through SnakeYAML's composer rather than Jackson's YAML parser: Jackson does not
 * expand aliases (kubectl does), and the composer is where SnakeYAML enforces its alias, nesting
 * and size limits. JSON goes through Jackson with the same limits as StreamReadConstraints.
 */
public final class DocumentReader {
    private final ObjectMapper json;
    private final LoaderOptions loader;
    private final ReadLimits limits;
    private final int threads;
    /** Whether a large YAML input is read plainly first ({@link #plainPiece}); false only in the tests' reference. */
    private final boolean plainFirst;

    public DocumentReader(ReadLimits limits) {
        this(limits, threadsFor(Runtime.getRuntime().availableProcessors()));
    }

    /** @param threads how many threads may read a large YAML input in pieces (1: in one plain piece) */
    DocumentReader(ReadLimits limits, int threads) {
        this(limits, threads, true);
    }

    /** The reading the plain one must equal: every YAML input through SnakeYAML's own reader and the constructor. */
    static DocumentReader exact(ReadLimits limits) {
        return new DocumentReader(limits, 1, false);
    }

    private DocumentReader(ReadLimits limits, int threads, boolean plainFirst) {
        this.plainFirst = plainFirst;
        this.threads = threads;
        this.limits = limits;
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxNestingDepth())
                .maxStringLength(limits.maxDocumentBytes())
                .maxDocumentLength(limits.maxDocumentBytes())
                .build();
        this.json = new ObjectMapper(JsonFactory.builder().streamReadConstraints(constraints).build());
        this.loader = new LoaderOptions();
        loader.setMaxAliasesForCollections(limits.maxAliases());
        loader.setNestingDepthLimit(limits.maxNestingDepth());
        loader.setCodePointLimit(limits.maxDocumentBytes()); // bytes ≥ code points: DocumentSizes refuses first
        loader.setAllowDuplicateKeys(false);
    }

    /** Keeps timestamps as the strings they were written as (Kubernetes fields are strings, not dates). */
    static final class Constructor extends SafeConstructor {
        Constructor(LoaderOptions options) {
            super(options);
            this.yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
        }

        Object construct(Node node) {
            return constructDocument(node);
        }

        /** What the constructor makes of one scalar node: its {@code Construct} for the node's resolved tag. */
        Object scalar(Node node) {
            return getConstructor(node).construct(node);
        }
    }

    /**
     * Reads every object of {@code input}, calling {@code sink} with each (List items one by one).
     * Documents that are not objects (scalars, empty documents) are skipped.
     *
     * @throws UserError naming the file, document and line of malformed or hostile input
     */
    public void read(String file, Reader input, Consumer<Document> sink) {
        BufferedReader in;
        boolean isJson;
        String text;
        try {
            text = DocumentSizes.read(file, input, limits.maxDocumentBytes());
            // kubectl drops a leading byte order mark before it decides JSON or YAML (cli-runtime's
            // resource/visitor.go, FileVisitor.Visit: unicode.BOMOverride); Jackson would stop at it
            if (text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
            in = new BufferedReader(new java.io.StringReader(text));
            isJson = startsLikeJson(in);
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        if (isJson) {
            readJson(file, in, sink);
            return;
        }
        List<List<Composed>> pieces = !plainFirst || text.length() < IN_PARALLEL_FROM ? null : inPieces(text);
        if (pieces == null) {
            readYaml(file, in, sink);
            return;
        }
        int document = 0;
        for (List<Composed> piece : pieces) {
            for (Composed c : piece) {
                document++;
                if (c.tree() != null) {
                    emit(c.tree(), new Source(file, document, c.line(), Source.NOT_IN_A_LIST), sink);
                }
            }
        }
    }

    /**
     * From this many characters a YAML input is read plainly first, in pieces where there are threads for them;
     * below, one thread reads it sooner than several start, and an input with an anchor is not read twice. A
     * manifest of a thousand StatefulSets is about 750,000.
     */
    static final int IN_PARALLEL_FROM = 128 * 1024;

    /** One document of a piece: its tree (null for an empty document) and the line it starts on in the input. */
    record Composed(ObjectNode tree, int line) {}

    /**
     * The threads a large manifest is read on: half the processors, at most 4. The manifest is read while the
     * command connects, and the other half is for what is on the way to the first answer meanwhile: the
     * command's own thread, the TLS handshake and the LISTs' decoding, and the JIT compiler. On two processors
     * that is one thread, the whole reading, which measured faster than two pieces (docs/performance.md).
     */
    static int threadsFor(int processors) {
        return Math.max(1, Math.min(4, processors / 2));
    }

    /**
     * A large YAML input read plainly ({@link #plainPiece}) in pieces ({@link YamlChunks}) on this reader's threads,
     * or in one piece with one thread: the pieces' documents in order, each numbered and placed as the whole
     * stream's reading places it. Null when it must be read whole instead: any piece that fails or holds what only
     * the constructor reads (anchors, merge keys, tags, a document that is no plain mapping), where the whole
     * reading makes the error, and counts the aliases, exactly as before.
     */
    List<List<Composed>> inPieces(String text) {
        List<Integer> starts = YamlChunks.starts(text);
        if (threads < 2 || starts.size() < 2) {
            List<Composed> one = plainPiece(text, 0, text.length());
            return one == null ? null : List.of(one);
        }
        List<Integer> bounds = YamlChunks.groups(text, starts, threads);
        int groups = bounds.size() - 1;
        List<List<Composed>> pieces = new ArrayList<>(java.util.Collections.nCopies(groups, null));
        List<Thread> started = new ArrayList<>();
        for (int g = 1; g < groups; g++) {
            int group = g;
            Thread t = new Thread(() -> pieces.set(group, plainPiece(text, bounds.get(group), bounds.get(group + 1))),
                    "stsresize-yaml-" + g);
            t.setDaemon(true);
            t.start();
            started.add(t);
        }
        pieces.set(0, plainPiece(text, 0, bounds.get(1)));
        try {
            for (Thread t : started) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        return pieces.contains(null) ? null : pieces;
    }

    /**
     * The documents of text[from, to), or null when the whole reading must decide (see {@link #inPieces}). Read as
     * {@code Yaml.composeAll} reads, but with {@link LineMarks}: nothing here reads a mark but a document's line.
     */
    private List<Composed> plainPiece(String text, int from, int to) {
        try {
            Constructor constructor = new Constructor(loader);
            YamlTrees direct = new YamlTrees(constructor::scalar, json);
            int lines = YamlChunks.lineBreaks(text, from);
            List<Composed> out = new ArrayList<>();
            Composer composer = new Composer(new ParserImpl(new LineMarks(new java.io.StringReader(text.substring(from, to))), loader),
                    new RememberingResolver(), loader);
            while (composer.checkNode()) {
                Node node = composer.getNode();
                if (node == null) {
                    return null; // where composeAll's iterator throws
                }
                if (node instanceof ScalarNode s && s.getTag().equals(Tag.NULL) && s.getAnchor() == null) {
                    out.add(new Composed(null, 0)); // an empty document: the constructor's null
                    continue;
                }
                ObjectNode tree = direct.of(node);
                if (tree == null) {
                    return null;
                }
                out.add(new Composed(tree, lines + node.getStartMark().getLine() + 1));
            }
            return out;
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    private void readYaml(String file, Reader in, Consumer<Document> sink) {
        Constructor constructor = new Constructor(loader);
        Yaml yaml = new Yaml(constructor, new org.yaml.snakeyaml.representer.Representer(new org.yaml.snakeyaml.DumperOptions()),
                new org.yaml.snakeyaml.DumperOptions(), loader, new RememberingResolver());
        YamlTrees direct = new YamlTrees(constructor::scalar, json);
        int document = 0;
        boolean inside = false;
        try {
            Iterator<Node> nodes = yaml.composeAll(in).iterator();
            while (nodes.hasNext()) {
                Node node = nodes.next();
                document++;
                inside = true;
                ComposedYaml.Problem unbuildable = node == null ? null : ComposedYaml.problem(node);
                if (unbuildable != null) {
                    Mark at = unbuildable.node().getStartMark();
                    throw refused(file, document, at.getLine() + 1, at.getColumn() + 1, unbuildable.message(), null);
                }
                JsonNode tree = node == null ? null : direct.of(node);
                if (tree == null && node != null) {
                    Object value = constructor.construct(node);
                    tree = value == null ? null : json.valueToTree(value);
                }
                inside = false;
                if (tree instanceof ObjectNode obj) {
                    emit(obj, new Source(file, document, node.getStartMark().getLine() + 1, Source.NOT_IN_A_LIST), sink);
                }
            }
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw refused(file, inside ? document : document + 1, m == null ? -1 : m.getLine() + 1, m == null ? -1 : m.getColumn() + 1,
                    e.getProblem() != null ? e.getProblem() : e.getMessage(), e);
        } catch (YAMLException | IllegalArgumentException e) {
            if (e.getCause() instanceof IOException io) {
                throw unreadable(file, io);
            }
            throw refused(file, inside ? document : document + 1, -1, -1, e.getMessage(), e);
        }
    }

    private void readJson(String file, Reader in, Consumer<Document> sink) {
        int document = 0;
        boolean inside = false;
        try (JsonParser p = json.getFactory().createParser(in)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                document++;
                inside = true;
                int line = p.currentTokenLocation().getLineNr();
                JsonNode node = t == JsonToken.VALUE_NULL ? null : json.readTree(p);
                inside = false;
                if (node instanceof ObjectNode obj) {
                    emit(obj, new Source(file, document, Math.max(1, line), Source.NOT_IN_A_LIST), sink);
                }
            }
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            throw refused(file, inside ? document : document + 1, l == null ? -1 : l.getLineNr(), l == null ? -1 : l.getColumnNr(),
                    e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    private static UserError unreadable(String file, IOException e) {
        if (e instanceof CharacterCodingException) {
            return new UserError(file + " is not UTF-8 text (" + e.getMessage() + "). Kubernetes manifests are UTF-8: convert it,"
                    + " e.g. iconv -f latin1 -t utf-8.", e);
        }
        return new UserError("cannot read " + file + ": " + e.getMessage() + ". Check that it exists and is readable.", e);
    }

    private static void emit(ObjectNode obj, Source source, Consumer<Document> sink) {
        String kind = obj.path("kind").asText("");
        if (kind.endsWith("List") && obj.path("items").isArray()) {
            int i = 0;
            for (JsonNode item : obj.get("items")) {
                i++;
                if (item instanceof ObjectNode o) {
                    sink.accept(new Document(o, source.inItem(i)));
                }
            }
            return;
        }
        sink.accept(new Document(obj, source));
    }

    private static boolean startsLikeJson(BufferedReader in) throws IOException {
        int window = 1 << 16;
        in.mark(window);
        try {
            for (int i = 0; i < window - 1; i++) {
                int c = in.read();
                if (c == -1) {
                    return false;
                }
                if (!Character.isWhitespace(c) && c != '\uFEFF') {
                    return c == '{' || c == '[';
                }
            }
            return false;
        } finally {
            in.reset();
        }
    }

    private UserError refused(String file, int document, int line, int column, String message, Exception cause) {
        String where = file + ", document " + document + (line > 0 ? " (line " + line + ", column " + column + ")" : "");
        String m = message == null ? "" : message;
        String lower = m.toLowerCase(Locale.ROOT);
        if (lower.contains("aliases")) {
            return new UserError(where + ": refused, the document uses more than " + limits.maxAliases()
                    + " aliases to collections (an alias bomb expands to gigabytes). Expand the anchors, or render the manifest"
                    + " with the tool that wrote it (helm template, kustomize build) and pass that output.", cause);
        }
        if (lower.contains("nesting depth")) {
            return new UserError(where + ": refused, the document nests deeper than " + limits.maxNestingDepth()
                    + " levels, which no Kubernetes object does. Check that it is the manifest you meant to pass.", cause);
        }
        if (lower.contains("code points") || lower.contains("document length") || lower.contains("string value length")) {
            return new UserError(where + ": refused, the document is larger than " + limits.maxDocumentBytes()
                    + " bytes, more than kube-apiserver accepts in one request. Check that it is the manifest you"
                    + " meant to pass, or split it into several documents.", cause);
        }
        String firstLine = m.strip().lines().findFirst().orElse("unreadable input");
        return new UserError(where + ": not valid YAML or JSON: " + firstLine
                + ". Fix the syntax there (kubectl apply --dry-run=client -f FILE shows the same error).", cause);
    }

    /** Every object of one input, in order. */
    public List<Document> readAll(String file, Reader input) {
        List<Document> out = new ArrayList<>();
        read(file, input, out::add);
        return out;
    }
}
