package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stsresize.UserError;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A large YAML input read plainly, in one piece on one thread or in pieces on several, gives exactly what the whole
 * stream's exact reading (SnakeYAML's own reader and marks, the constructor) gives: the same trees, document numbers
 * and lines, and the same error (or the same refusal) where that reading fails.
 */
class YamlPiecesTest {
    private static final DocumentReader WHOLE = DocumentReader.exact(ReadLimits.DEFAULT);
    private static final DocumentReader ONE = new DocumentReader(ReadLimits.DEFAULT, 1);
    private static final DocumentReader PIECES = new DocumentReader(ReadLimits.DEFAULT, 4);

    @Test
    void aLargeManifestIsReadOnHalfTheProcessorsAtMostFourAndWholeOnTwo() {
        // the other half is for the connection, the LISTs' decoding and the compiler, which the first answer waits for
        assertThat(java.util.stream.IntStream.of(1, 2, 3, 4, 6, 8, 16, 64).map(DocumentReader::threadsFor).boxed().toList())
                .containsExactly(1, 1, 1, 2, 3, 4, 4, 4);
    }

    /** Documents that put what looks like a document marker everywhere it is not one, and markers where they are. */
    private static final List<String> KINDS = List.of(
            ManifestReaderTest.sts("db", "10Gi"),
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: text}\ndata:\n  script: |\n    echo start\n    ---\n"
                    + "    --- not a marker, indented\n  folded: >\n    a\n     ---\n    b\n",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: quoted\ndata:\n  a: \"one\n    --- two\"\n  b: 'x ---\n    y'\n"
                    + "  c: ---plain\n  d: \"---\"\n",
            "# --- a comment\n---\n# another\n",
            "--- {apiVersion: v1, kind: Namespace, metadata: {name: inline}}\n",
            "---\n---\n",
            "--- ~\n",
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Secret, metadata: {name: s1}}\n- {kind: x}\n",
            "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: crlf}\r\ndata: {a: \"1\"}\r\n",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ended}\n...\n# after the end\n",
            "--- \napiVersion: v1\nkind: ConfigMap\nmetadata: {name: tab, labels: {n: 12, f: 1.5, b: true, d: 2001-12-14}}\n",
            "a: 1\n----: x\n---b: ---\n",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kept}\ndata:\n  kept: |+\n    x\n\n\n",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\ndata:\n  plain: a\n    b\n\n    c\n");

    /** About {@code size} characters of documents of every kind above, in turn. */
    private static String stream(int size) {
        StringBuilder s = new StringBuilder("# leading comment\n");
        for (int i = 0; s.length() < size; i++) {
            String kind = KINDS.get(i % KINDS.size()).replace("name: db", "name: db-" + i);
            s.append(i == 0 ? "" : "---\n").append(kind);
        }
        return s.toString();
    }

    private static List<String> read(DocumentReader reader, String text) {
        List<String> out = new ArrayList<>();
        reader.read("m.yaml", new StringReader(text), d -> out.add(d.source() + " " + d.object()));
        return out;
    }

    private static String error(DocumentReader reader, String text) {
        Throwable t = catchThrowable(() -> read(reader, text));
        assertThat(t).isInstanceOf(UserError.class);
        return t.getMessage();
    }

    @Test
    void a_large_plain_stream_is_read_in_pieces_exactly_as_whole() {
        String text = stream(600_000);
        assertThat(PIECES.inPieces(text)).as("read in pieces, not whole").isNotNull().hasSizeGreaterThan(1);
        List<String> whole = read(WHOLE, text);
        assertThat(whole).hasSizeGreaterThan(2000);
        assertThat(read(PIECES, text)).isEqualTo(whole);
    }

    @Test
    void a_large_plain_stream_is_read_in_one_plain_piece_on_one_thread_exactly_as_whole() {
        String text = stream(600_000);
        assertThat(ONE.inPieces(text)).as("read plainly in one piece").isNotNull().hasSize(1);
        assertThat(read(ONE, text)).isEqualTo(read(WHOLE, text));
    }

    @Test
    void every_cut_is_at_a_document_start_and_a_piece_alone_reads_as_in_the_whole() {
        String text = stream(20_000);
        List<Integer> starts = YamlChunks.starts(text);
        assertThat(starts).hasSizeGreaterThan(KINDS.size());
        for (int s : starts.subList(1, starts.size())) {
            assertThat(text.substring(s)).matches("(?s)---([ \t\r\n].*)?");
            assertThat(text.charAt(s - 1)).isEqualTo('\n');
        }
        assertThat(YamlChunks.starts("%YAML 1.1\n---\na: 1\n---\nb: 2\n")).containsExactly(0);
        assertThat(YamlChunks.starts("a: 1\n--- \nb: 2\n---x\n ---\n---")).containsExactly(0, 5, 25);
    }

    @Test
    void lines_are_counted_as_snakeyaml_counts_them() {
        String breaks = "a\nb\r\nc\rd\u2028e\u0085f\u2029";
        assertThat(YamlChunks.lineBreaks(breaks, breaks.length())).isEqualTo(6);
        assertThat(YamlChunks.lineBreaks("a\r\n", 2)).isEqualTo(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "bad: [unclosed\n",
        "---\ta: 1\n",
        "bad: \"quoted across a marker\n---\nnext: 1\"\n",
        "flow: {a: 1,\n---\n}\n",
        "dup: 1\ndup: 2\n",
        "%TAG ! tag:example.com,2000:\n---\na: !x 1\n",
        "a: &x {b: 1}\nc: *x\n",
        "- a list document\n",
        "just a scalar\n",
        "a: !!binary notbase64@@\n",
        "<<: {a: 1}\nb: 2\n",
    })
    void whatever_the_pieces_cannot_read_alone_is_read_whole_with_the_same_answer(String odd) {
        String text = stream(300_000) + "---\n" + odd + "---\n" + stream(300_000);
        assertThat(PIECES.inPieces(text)).as("read whole").isNull();
        assertThat(ONE.inPieces(text)).as("read whole").isNull();
        Throwable whole = catchThrowable(() -> read(WHOLE, text));
        if (whole == null) {
            assertThat(read(PIECES, text)).isEqualTo(read(WHOLE, text));
            assertThat(read(ONE, text)).isEqualTo(read(WHOLE, text));
        } else {
            assertThat(error(PIECES, text)).isEqualTo(whole.getMessage());
            assertThat(error(ONE, text)).isEqualTo(whole.getMessage());
        }
    }

    @Test
    void aliases_are_counted_over_the_whole_stream_as_snakeyaml_counts_them() {
        // SnakeYAML's composer counts aliases to collections for the stream, not per document
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            s.append("---\na: &x {b: 1}\nc: *x\n").append(stream(3_000));
        }
        String text = s.toString();
        assertThat(text.length()).isGreaterThan(DocumentReader.IN_PARALLEL_FROM);
        String refusal = error(WHOLE, text);
        assertThat(refusal).contains("more than 50 aliases");
        assertThat(error(PIECES, text)).isEqualTo(refusal);
        assertThat(error(ONE, text)).isEqualTo(refusal);
    }

    @Test
    void an_error_keeps_its_document_and_line_in_the_whole_input() {
        String text = stream(400_000) + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: [oops}\n" + stream(50_000);
        String whole = error(WHOLE, text);
        assertThat(whole).matches("(?s)m\\.yaml, document \\d{4,} \\(line \\d{5,}, column \\d+\\).*");
        assertThat(error(PIECES, text)).isEqualTo(whole);
        assertThat(error(ONE, text)).isEqualTo(whole);
    }
}
