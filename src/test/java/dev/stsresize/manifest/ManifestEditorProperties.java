package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.Generate.enumValues;
import static org.quicktheories.generators.Generate.longRange;
import static org.quicktheories.generators.Generate.oneOf;
import static org.quicktheories.generators.Generate.pick;

import dev.stsresize.UserError;
import dev.stsresize.plan.Quantity;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * set-size's editor on generated manifests (block, flow and JSON styles, quoting, comments, CRLF, a byte order mark,
 * other documents that also say "storage", non-ASCII text): the edited text is the original with exactly the size's
 * characters replaced, worked out here from where the generator wrote them, and it reads back with the new size.
 */
class ManifestEditorProperties {
    private static final long GI = 1L << 30;

    enum Style { BLOCK, FLOW, JSON }

    enum Quote { PLAIN, SINGLE, DOUBLE }

    /** One template: its name, its size in Gi, how the size is quoted, and the size set-size is given (in bytes). */
    record Template(String name, long sizeGi, Quote quote, long newBytes, String newNotation) {
        String newSize() {
            return switch (newNotation) {
                case "Mi" -> newBytes / (1 << 20) + "Mi";
                case "Ki" -> newBytes / 1024 + "Ki";
                case "e" -> newBytes + "e0";
                default -> Long.toString(newBytes);
            };
        }
    }

    record Manifest(Style style, boolean bom, boolean crlf, boolean decoyBefore, boolean decoyAfter, boolean commented,
            String comment, List<Template> templates) {}

    /** The text, and where each template's size is written in it. */
    record Written(String text, Map<String, int[]> sizeAt) {}

    @Test
    void anEditChangesExactlyTheSizesCharacters() {
        qt().withExamples(200).forAll(manifests()).checkAssert(m -> {
            Written w = write(m);
            Map<String, String> sizes = new LinkedHashMap<>();
            m.templates().forEach(t -> sizes.put(t.name(), t.newSize()));

            String edited = new ManifestEditor("db.yaml", w.text(), "shop").setSizes("shop", "db", sizes);

            assertThat(edited).isEqualTo(expected(w, sizes));
            List<Document> docs = new DocumentReader(ReadLimits.DEFAULT).readAll("db.yaml", new StringReader(edited));
            Document sts = docs.stream().filter(d -> d.is("apps/v1", "StatefulSet")).findFirst().orElseThrow();
            for (int i = 0; i < m.templates().size(); i++) {
                // by value: YAML reads a plain 1074790400e0 as a float, which the manifest reader takes as the same quantity
                String read = sts.object().at("/spec/volumeClaimTemplates/" + i + "/spec/resources/requests/storage").asText();
                assertThat(Quantity.parse(read)).as(read).isEqualTo(Quantity.parse(m.templates().get(i).newSize()));
            }
        });
    }

    @Test
    void aSizeThatDoesNotGrowIsRefusedAndNothingIsWritten() {
        qt().withExamples(100).forAll(manifests(), longRange(0, 3)).checkAssert((m, lessGi) -> {
            Written w = write(m);
            Template first = m.templates().get(0);
            Map<String, String> sizes = new LinkedHashMap<>();
            m.templates().forEach(t -> sizes.put(t.name(), t.newSize()));
            sizes.put(first.name(), Math.max(0, first.sizeGi() - lessGi) * 1024 + "Mi");
            ManifestEditor editor = new ManifestEditor("db.yaml", w.text(), "shop");
            assertThatThrownBy(() -> editor.setSizes("shop", "db", sizes)).isInstanceOf(UserError.class)
                    .satisfiesAnyOf(e -> assertThat(e).hasMessageContaining("not larger"),
                            e -> assertThat(e).hasMessageContaining("not a storage quantity"));
        });
    }

    static Gen<Manifest> manifests() {
        Gen<Template> data = template("data");
        Gen<Template> wal = template("wal");
        Gen<List<Template>> templates = oneOf(data.map(t -> List.of(t)), data.zip(wal, List::of), wal.zip(data, List::of));
        Gen<String> comment = pick(List.of("the shop's database", "Größe 😀 ünd ✓", "storage: 10Gi", "---", "'\"{}[]&*"));
        Gen<Boolean> maybe = pick(List.of(false, true));
        // more parts than zip takes: drawn one after another from the same source, so QuickTheories still shrinks each
        return in -> new Manifest(enumValues(Style.class).generate(in), pick(List.of(false, false, true)).generate(in),
                maybe.generate(in), maybe.generate(in), maybe.generate(in), maybe.generate(in), comment.generate(in),
                templates.generate(in));
    }

    private static Gen<Template> template(String name) {
        return longRange(1, 500).zip(enumValues(Quote.class), longRange(1, 2048), pick(List.of("Mi", "Ki", "e", "bytes")),
                (gi, quote, growMi, notation) -> new Template(name, gi, quote, gi * GI + growMi * (1 << 20), notation));
    }

    // ---------------------------------------------------------------- the text

    private static final String SIZE_MARK = "\u0000";

    private static Written write(Manifest m) {
        StringBuilder b = new StringBuilder();
        if (m.style() == Style.JSON) {
            b.append(json(m));
        } else {
            if (m.commented()) {
                b.append("# ").append(m.comment().replace("---", "- - -")).append('\n');
            }
            if (m.decoyBefore()) {
                b.append("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sizes}\ndata: {storage: 10Gi}\n---\n");
            }
            b.append(m.style() == Style.BLOCK ? block(m) : flow(m));
            if (m.decoyAfter()) {
                b.append("---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data-db-0}\n"
                        + "spec: {resources: {requests: {storage: 10Gi}}}\n");
            }
        }
        String text = (m.bom() ? "\uFEFF" : "") + b;
        if (m.crlf()) {
            text = text.replace("\n", "\r\n");
        }
        Map<String, int[]> at = new LinkedHashMap<>();
        StringBuilder out = new StringBuilder();
        int from = 0;
        int mark;
        int n = 0;
        List<Template> inOrder = new ArrayList<>(m.templates());
        while ((mark = text.indexOf(SIZE_MARK, from)) >= 0) {
            out.append(text, from, mark);
            String size = inOrder.get(n).sizeGi() + "Gi";
            at.put(inOrder.get(n).name(), new int[] {out.length(), out.length() + size.length()});
            out.append(size);
            from = mark + 1;
            n++;
        }
        out.append(text.substring(from));
        return new Written(out.toString(), at);
    }

    private static String quoted(Template t, boolean json) {
        if (json) {
            return "\"" + SIZE_MARK + "\"";
        }
        return switch (t.quote()) {
            case PLAIN -> SIZE_MARK;
            case SINGLE -> "'" + SIZE_MARK + "'";
            case DOUBLE -> "\"" + SIZE_MARK + "\"";
        };
    }

    private static String block(Manifest m) {
        StringBuilder b = new StringBuilder("apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db   # in -n's namespace\n"
                + "  labels: {app: db}\nspec:\n  serviceName: db\n  volumeClaimTemplates:\n");
        for (Template t : m.templates()) {
            b.append("  - metadata:\n      name: ").append(t.name()).append("\n    spec:\n      accessModes: [\"ReadWriteOnce\"]\n"
                    + "      resources:\n        requests:\n          storage: ").append(quoted(t, false));
            b.append(m.commented() ? "   # " + m.comment() + "\n" : "\n");
        }
        return b.toString();
    }

    private static String flow(Manifest m) {
        StringBuilder b = new StringBuilder("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  volumeClaimTemplates:\n");
        for (Template t : m.templates()) {
            b.append("  - {metadata: {name: ").append(t.name()).append("}, spec: {resources: {requests: {storage: ")
                    .append(quoted(t, false)).append("}}}}\n");
        }
        return b.toString();
    }

    private static String json(Manifest m) {
        StringBuilder b = new StringBuilder("{\"apiVersion\": \"apps/v1\", \"kind\": \"StatefulSet\",\n \"metadata\": {\"name\": \"db\", "
                + "\"annotations\": {\"note\": \"" + m.comment().replace("\"", "\\\"") + "\"}},\n \"spec\": {\"volumeClaimTemplates\": [");
        for (int i = 0; i < m.templates().size(); i++) {
            Template t = m.templates().get(i);
            b.append(i == 0 ? "\n  " : ",\n  ").append("{\"metadata\": {\"name\": \"").append(t.name())
                    .append("\"}, \"spec\": {\"resources\": {\"requests\": {\"storage\": ").append(quoted(t, true)).append("}}}}");
        }
        return b.append("]}}\n").toString();
    }

    /** The original with each recorded range replaced, from the end so that earlier offsets hold. */
    private static String expected(Written w, Map<String, String> sizes) {
        StringBuilder out = new StringBuilder(w.text());
        w.sizeAt().entrySet().stream().sorted((a, b) -> Integer.compare(b.getValue()[0], a.getValue()[0]))
                .forEach(e -> out.replace(e.getValue()[0], e.getValue()[1], sizes.get(e.getKey())));
        return out.toString();
    }
}
