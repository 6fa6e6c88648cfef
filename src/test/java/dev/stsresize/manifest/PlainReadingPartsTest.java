package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The two parts of the plain reading that stand in for SnakeYAML's own: {@link RememberingResolver} answers every
 * scalar as SnakeYAML's resolver does, the first time and from memory; {@link LineMarks} puts every event on the
 * line SnakeYAML's reader puts it.
 */
class PlainReadingPartsTest {
    /** Scalars of every implicit tag, and near misses sharing their first characters. */
    private static final List<String> SCALARS = List.of(
            "true", "True", "TRUE", "tRue", "false", "yes", "Yes", "no", "NO", "on", "On", "off", "OFF", "y", "n", "nope",
            "null", "Null", "NULL", "nul", "~", "", " ", "0", "1", "-1", "+1", "007", "0x1F", "0o17", "0b101", "1_000",
            "1:30", "190:20:30", "1.5", ".5", "-.inf", ".Inf", ".NaN", ".nan", "1e3", "6.8523015e+5", "1.0e-3",
            "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-13", "<<", "<", "=", "==",
            "10Gi", "20Gi", "500m", "fast-online", "apiVersion", "name", "namespace", "storage", "ReadWriteOnce",
            "postgres:16.4", "a long plain scalar that is longer than sixty-four characters, so never remembered at all",
            "0.0.1", "v1", "1.", "-", "--", "+", "._", "#", "123abc", "0x", "true ", " false");

    @Test
    void the_remembering_resolver_answers_every_scalar_as_snakeyamls_own_first_and_from_memory() {
        Resolver own = new Resolver();
        RememberingResolver remembering = new RememberingResolver();
        for (int round = 0; round < 3; round++) {
            for (String s : SCALARS) {
                for (boolean implicit : new boolean[] {true, false}) {
                    assertThat(remembering.resolve(NodeId.scalar, s, implicit)).as("%s implicit=%s round %d", s, implicit, round)
                            .isEqualTo(own.resolve(NodeId.scalar, s, implicit));
                }
            }
        }
        assertThat(remembering.resolve(NodeId.mapping, "", true)).isEqualTo(Tag.MAP);
        assertThat(remembering.resolve(NodeId.sequence, "", true)).isEqualTo(Tag.SEQ);
    }

    @Test
    void past_its_bound_it_still_answers_as_snakeyamls_own() {
        Resolver own = new Resolver();
        RememberingResolver remembering = new RememberingResolver();
        for (int i = 0; i < 10_000; i++) {
            String s = i % 3 == 0 ? Integer.toString(i) : i % 3 == 1 ? "name-" + i : i + ".5";
            assertThat(remembering.resolve(NodeId.scalar, s, true)).as(s).isEqualTo(own.resolve(NodeId.scalar, s, true));
        }
        for (String s : SCALARS) {
            assertThat(remembering.resolve(NodeId.scalar, s, true)).as(s).isEqualTo(own.resolve(NodeId.scalar, s, true));
        }
    }

    private static final String DOCUMENTS = "# leading comment\n"
            + ManifestReaderTest.sts("db", "10Gi")
            + "---\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: crlf,\n  labels: {a: b}}\r\ndata:\n  script: |\n"
            + "    echo start\n    ---\n  folded: >\n    a\n     b\n  q: \"one\n    two\"\n  s: 'x\n    y'\n"
            + "--- [a, b,\n  c]\n--- ~\n...\n# after the end\n--- \u2028a: 1\u0085b: [2,\u2029 3]\n";

    private static List<String> eventLines(StreamReader reader) {
        List<String> out = new ArrayList<>();
        ParserImpl parser = new ParserImpl(reader, new LoaderOptions());
        while (parser.peekEvent() != null) {
            Event e = parser.getEvent();
            out.add(e.getEventId() + " " + e.getStartMark().getLine() + "-" + e.getEndMark().getLine());
            if (e.is(Event.ID.StreamEnd)) {
                break;
            }
        }
        return out;
    }

    @Test
    void line_marks_put_every_event_on_the_line_snakeyamls_reader_puts_it() {
        List<String> exact = eventLines(new StreamReader(new StringReader(DOCUMENTS)));
        assertThat(exact).hasSizeGreaterThan(60);
        assertThat(exact.stream().map(l -> l.substring(l.indexOf(' ') + 1)).distinct().count()).as("on many lines").isGreaterThan(20);
        assertThat(eventLines(new LineMarks(new StringReader(DOCUMENTS)))).isEqualTo(exact);
    }
}
