package dev.stsresize.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.UserError;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes what reads a user's file: the manifest reader (documents, then each StatefulSet's checks) and set-size's
 * editor, over generated inputs (by default a million): valid manifests mutated by YAML-aware edits (anchors, aliases,
 * merge keys, tags, flow brackets, quotes, document markers, tabs, line breaks, non-ASCII, quantities at their limits,
 * splices of two manifests) and now and then bytes that are not UTF-8. The only failure a user may see is a
 * {@link UserError}: any other exception or error is a finding, counted by its type and where it was thrown, with the
 * first input that raised it written to {@code target/fuzz/}. The test fails on any finding; it prints the inputs, the
 * time and the slowest input (a figure, never an assertion).
 *
 * <p>Run with {@code mvn -B -Pbench test -pl plugin -Dtest=ManifestFuzzBenchmark} ({@code -Dfuzz.inputs=N},
 * {@code -Dfuzz.seed=S}, {@code -Dfuzz.threads=T}: each thread its own generator, seeded S + its index); docs/testing.md has the last run's figures.
 */
@Tag("bench")
class ManifestFuzzBenchmark {
    private static final String[] TOKENS = {
        "&a ", "*a", "<<: *a\n", "&a [*a]", "&b {x: *b}", "!!binary ", "!!map ", "!!str ", "!!int ", "!!timestamp ", "!!set ",
        "!foo ", "? ", "? [a]\n: b\n", "---\n", "--- ", "...\n", "%YAML 1.1\n", "%TAG ! tag:x,2000:\n", "kind: List\nitems:\n",
        "{{ .Values.size }}", "storage: ", "storage: 1e100", "storage: -1Gi", "storage: 0", "storage: 9223372036854775807Ei",
        "storage: 1e-101", "storage: .", "storage: ~", "storage: [1Gi]", "storage: {a: 1}", "storage: |\n  10Gi\n",
        "storage: >-\n  10Gi\n", "storage: \"10\\x47i\"", "storage: '10Gi''", "- ", "\t", "'", "\"", "\\", "\"\\u0000\"",
        "\"\\ud800\"", "~", "null", "true", "[", "]", "{", "}", ",", ": ", ":", "#", " #c", "|", ">", "@", "`", "%", "!",
        "\r", "\r\n", "\n", "\u0085", "\u2028", "\uFEFF", "😀", "Größe", "\u0000", "\u0007", "volumeClaimTemplates:\n",
        "volumeClaimTemplates: ~\n", "volumeClaimTemplates: [~]\n", "metadata: {name: data}\n", "metadata: ~\n",
        "name: db\n", "name: [db]\n", "namespace: shop\n", "namespace: \"\"\n", "namespace: 7\n", "replicas: -1\n",
        "replicas: 1e400\n", "replicas: \"3\"\n", "ordinals: {start: -5}\n", "apiVersion: apps/v1\n", "kind: StatefulSet\n",
        "spec: ~\n", "spec: []\n", "resources: {requests: ~}\n", "requests: {storage: 10Gi}\n", "items: ~\n", "items: [1, ~]\n",
        "99999999999999999999999999999", "1e2147483648", "0x1F", "0o17", ".inf", "-.inf", ".nan", "2001-12-14t21:59:43.10-05:00",
    };

    @Test
    void the_manifest_reader_and_set_size_raise_only_user_errors() throws Exception {
        long inputs = Long.getLong("fuzz.inputs", 1_000_000L);
        long seed = Long.getLong("fuzz.seed", 20261206L);
        int threads = Integer.getInteger("fuzz.threads", 2);
        List<Seed> seeds = seeds();
        Map<String, Finding> findings = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Tally>> tallies = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            long share = inputs / threads + (w < inputs % threads ? 1 : 0);
            long workerSeed = seed + w;
            tallies.add(pool.submit(() -> fuzz(share, new Random(workerSeed), seeds, findings)));
        }
        Tally total = new Tally();
        for (Future<Tally> t : tallies) {
            total.add(t.get());
        }
        pool.shutdown();
        double seconds = (System.nanoTime() - start) / 1e9;
        Path out = Path.of("target", "fuzz");
        Files.createDirectories(out);
        int n = 0;
        for (Finding f : findings.values()) {
            n++;
            Files.write(out.resolve("finding-" + n + ".input"), f.bytes != null ? f.bytes : f.text.getBytes(StandardCharsets.UTF_8));
            StringWriter trace = new StringWriter();
            f.error.printStackTrace(new PrintWriter(trace));
            Files.writeString(out.resolve("finding-" + n + ".txt"), f.key + "\n" + f.count.get() + " inputs\n\n" + trace);
        }
        System.out.printf("fuzz: %,d inputs (seed %d, %d threads) through the manifest reader and set-size in %.1f s (%,.0f inputs/s);"
                + " %,d reads or edits accepted, %,d refused with a UserError; slowest input %.1f ms; %d findings%n",
                inputs, seed, threads, seconds, inputs / seconds, total.accepted, total.userErrors, total.slowestNanos / 1e6, findings.size());
        System.out.println("fuzz: slowest input: " + total.slowest.replace("\n", "\\n"));
        findings.values().forEach(f -> System.out.println("fuzz: finding: " + f.key + " (" + f.count.get() + " inputs)"));
        assertThat(findings.keySet()).as("uncaught exceptions (inputs in target/fuzz/)").isEmpty();
    }

    /** What one worker saw. */
    private static final class Tally {
        long accepted;
        long userErrors;
        long slowestNanos;
        String slowest = "";

        void add(Tally t) {
            accepted += t.accepted;
            userErrors += t.userErrors;
            if (t.slowestNanos > slowestNanos) {
                slowestNanos = t.slowestNanos;
                slowest = t.slowest;
            }
        }
    }

    private static Tally fuzz(long inputs, Random random, List<Seed> seeds, Map<String, Finding> findings) {
        DocumentReader documents = new DocumentReader(ReadLimits.DEFAULT);
        Tally tally = new Tally();
        for (long i = 0; i < inputs; i++) {
            Seed s = seeds.get(random.nextInt(seeds.size()));
            boolean raw = random.nextInt(100) == 0;
            byte[] bytes = raw ? rawBytes(random, s.text) : null;
            String text = raw ? new String(bytes, StandardCharsets.UTF_8) : mutate(random, s.text, seeds);
            String size = random.nextInt(4) == 0 ? TOKENS[random.nextInt(TOKENS.length)].strip() : (1 + random.nextInt(2000)) + "Gi";
            long t0 = System.nanoTime();
            for (int step = 0; step < 2; step++) {
                try {
                    if (step == 0) {
                        read(documents, text, bytes);
                    } else {
                        new ManifestEditor("fuzz.yaml", text, "shop").setSizes(s.namespace, s.name, Map.of(s.template, size));
                    }
                    tally.accepted++;
                } catch (UserError e) {
                    tally.userErrors++;
                } catch (Throwable e) { // an NPE, a ClassCastException, a StackOverflowError: what a user must never see
                    String where = e.getStackTrace().length == 0 ? "?" : e.getStackTrace()[0].toString();
                    String key = (step == 0 ? "reader: " : "set-size: ") + e.getClass().getName() + " at " + where;
                    findings.computeIfAbsent(key, k -> new Finding(k, raw ? null : text, bytes, e)).count.incrementAndGet();
                }
            }
            long took = System.nanoTime() - t0;
            if (took > tally.slowestNanos) {
                tally.slowestNanos = took;
                tally.slowest = text.length() > 200 ? text.substring(0, 200) + "…" : text;
            }
        }
        return tally;
    }

    /** The manifest reader as the commands run it: documents, then every StatefulSet's checks; raw bytes through -f -. */
    private static void read(DocumentReader documents, String text, byte[] bytes) {
        if (bytes != null) {
            new ManifestReader(new ByteArrayInputStream(bytes), ReadLimits.DEFAULT).read(List.of("-"), false, "shop", false);
            return;
        }
        documents.read("fuzz.yaml", new StringReader(text), doc -> {
            if (doc.is("apps/v1", "StatefulSet")) {
                ManifestReader.validated(doc, "shop", false);
            }
        });
    }

    private static final class Finding {
        final String key;
        final String text;
        final byte[] bytes;
        final Throwable error;
        final AtomicLong count = new AtomicLong();

        Finding(String key, String text, byte[] bytes, Throwable error) {
            this.key = key;
            this.text = text;
            this.bytes = bytes;
            this.error = error;
        }
    }

    /** A valid manifest and the template set-size is asked to grow in it. */
    private record Seed(String text, String namespace, String name, String template) {}

    private static List<Seed> seeds() throws IOException {
        List<Seed> seeds = new ArrayList<>();
        // the example's first two documents (a StatefulSet and a Service): the whole file would only slow every input
        String example = Files.readString(Path.of("examples", "manifest.yaml"));
        seeds.add(new Seed(example.substring(0, example.indexOf("\n---\n", example.indexOf("\n---\n") + 1) + 1), "shop", "postgres", "data"));
        seeds.add(new Seed(ManifestEditorTest.MANIFEST, "shop", "db", "data"));
        seeds.add(new Seed(ManifestEditorTest.MANIFEST, "shop", "db", "wal"));
        seeds.add(new Seed(ManifestEditorTest.sizeWritten("          storage: 10Gi"), "shop", "db", "data"));
        seeds.add(new Seed("""
                {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "shop"},
                 "spec": {"replicas": 3, "volumeClaimTemplates": [{"metadata": {"name": "data"},
                   "spec": {"resources": {"requests": {"storage": "10Gi"}}}}]}}
                """, "shop", "db", "data"));
        seeds.add(new Seed("""
                apiVersion: v1
                kind: List
                items:
                - apiVersion: apps/v1
                  kind: StatefulSet
                  metadata: {name: db, labels: &l {app: db}}
                  spec:
                    selector: {matchLabels: *l}
                    template: {metadata: {labels: *l}}
                    volumeClaimTemplates: [{metadata: {name: data}, spec: {resources: {requests: {storage: 3Gi}}}}]
                """, "shop", "db", "data"));
        return seeds;
    }

    private static String mutate(Random r, String text, List<Seed> seeds) {
        StringBuilder b = new StringBuilder(text);
        int edits = 1 + r.nextInt(5);
        for (int e = 0; e < edits; e++) {
            int at = b.length() == 0 ? 0 : r.nextInt(b.length() + 1);
            switch (r.nextInt(7)) {
                case 0 -> b.insert(at, TOKENS[r.nextInt(TOKENS.length)]);
                case 1 -> { // replace one character
                    if (at < b.length()) {
                        String t = TOKENS[r.nextInt(TOKENS.length)];
                        b.setCharAt(at, t.isEmpty() ? ' ' : t.charAt(0));
                    }
                }
                case 2 -> b.delete(at, Math.min(b.length(), at + 1 + r.nextInt(40)));
                case 3 -> { // copy a stretch somewhere else (a line repeated, a mapping nested in itself)
                    int from = b.length() == 0 ? 0 : r.nextInt(b.length());
                    String piece = b.substring(from, Math.min(b.length(), from + 1 + r.nextInt(120)));
                    b.insert(Math.min(at, b.length()), piece);
                }
                case 4 -> { // splice: the head of this one, the tail of another
                    String other = seeds.get(r.nextInt(seeds.size())).text;
                    b.setLength(Math.min(at, b.length()));
                    b.append(other.substring(r.nextInt(other.length())));
                }
                case 5 -> { // indent or outdent a line
                    int line = b.lastIndexOf("\n", Math.max(0, at - 1)) + 1;
                    if (r.nextBoolean()) {
                        b.insert(line, r.nextBoolean() ? "  " : " ");
                    } else if (line < b.length() && b.charAt(line) == ' ') {
                        b.deleteCharAt(line);
                    }
                }
                default -> { // a quantity somewhere it is read
                    int s = b.indexOf("storage: ", at);
                    if (s >= 0) {
                        int end = s + "storage: ".length();
                        int stop = end;
                        while (stop < b.length() && " \n\r,}'\"#".indexOf(b.charAt(stop)) < 0) {
                            stop++;
                        }
                        String[] sizes = {"1e100", "1e-100", "-0", "+5Gi", "0.000000001", "1n", "999999999999999999999Ei",
                            "1.5.5Gi", "Gi", ".", "1e", "007", "10Gi10", "8Ei", "1E"};
                        b.replace(end, stop, sizes[r.nextInt(sizes.length)]);
                    }
                }
            }
        }
        return b.toString();
    }

    /** The text as bytes with some bytes replaced: often not UTF-8 any more (a lone continuation byte, a truncated sequence). */
    private static byte[] rawBytes(Random r, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        int edits = 1 + r.nextInt(4);
        for (int e = 0; e < edits && b.length > 0; e++) {
            b[r.nextInt(b.length)] = (byte) (0x80 + r.nextInt(0x80));
        }
        return b;
    }
}
