package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 13 item 5: input kube-apiserver would refuse is refused before anything is sent — exit 1,
 * one paragraph naming the file, the object and the field — for every command that reads a
 * manifest, and for the namespaces and names given on the command line.
 */
class BadInputTest {
    @TempDir Path home;

    static Stream<Arguments> badManifests() {
        return Stream.<Arguments>of(
                Arguments.of("a name that changes the path", (Consumer<ObjectNode>) o -> meta(o).put("name", "../../x"),
                        "metadata.name: Invalid value: \"../../x\""),
                Arguments.of("a namespace .. (a cluster-wide LIST after path normalisation)",
                        (Consumer<ObjectNode>) o -> meta(o).put("namespace", ".."), "metadata.namespace: Invalid value: \"..\""),
                Arguments.of("replicas beyond int32", (Consumer<ObjectNode>) o -> spec(o).put("replicas",
                        new java.math.BigInteger("99999999999999999999")), "cannot unmarshal number 99999999999999999999"),
                Arguments.of("negative replicas", (Consumer<ObjectNode>) o -> spec(o).put("replicas", -1),
                        "spec.replicas: Invalid value: -1: must be greater than or equal to 0"),
                Arguments.of("a negative storage request", (Consumer<ObjectNode>) o -> storage(o, "-5Gi"),
                        "Invalid value: \"-5Gi\": must be greater than zero"),
                Arguments.of("a zero storage request", (Consumer<ObjectNode>) o -> storage(o, "0"),
                        "Invalid value: \"0\": must be greater than zero"));
    }

    static ObjectNode meta(ObjectNode o) {
        return (ObjectNode) o.get("metadata");
    }

    static ObjectNode spec(ObjectNode o) {
        return (ObjectNode) o.get("spec");
    }

    static void storage(ObjectNode o, String size) {
        ((ObjectNode) o.at("/spec/volumeClaimTemplates/0/spec/resources/requests")).put("storage", size);
    }

    Path badManifest(Consumer<ObjectNode> breakIt) {
        List<ObjectNode> objects = ApplyCommandTest.only(DemoScenario.manifest(), "postgres");
        breakIt.accept(objects.get(0));
        return Commands.manifest(home, objects);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badManifests")
    void applyPlanAndRenderJobRefuseItAndSendNothing(String what, Consumer<ObjectNode> breakIt, String apiServerSays) {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = badManifest(breakIt);
            for (List<String> args : List.of(List.of("apply", "--yes"), List.of("apply", "--dry-run=server"), List.of("plan"),
                    List.of("render-job", "-n", "shop"))) {
                String[] argv = Stream.concat(args.stream(), Stream.of("-f", manifest.toString())).toArray(String[]::new);
                Commands.Run r = args.get(0).equals("render-job") ? renderJob(argv) : Commands.run(h, argv);
                assertThat(r.code()).as(args + ": " + r.describe()).isEqualTo(1);
                assertThat(r.err()).as(args + ": " + r.describe())
                        .startsWith("error: " + manifest + ", document 1 (line ")
                        .contains("kube-apiserver would refuse it: ", apiServerSays, "Nothing was sent.")
                        .hasLineCount(1);
                assertThat(r.out()).as(args.toString()).isEmpty();
            }
            assertThat(h.sim.requests()).as("not one request, let alone a write").isEmpty();
        }
    }

    /** render-job connects to nothing: the real command line, without the harness's --kubeconfig. */
    static Commands.Run renderJob(String... argv) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = new dev.stsresize.cli.Cli(new java.io.PrintWriter(out), new java.io.PrintWriter(err),
                java.io.InputStream.nullInputStream(), java.util.Map.of(), false).run(argv);
        return new Commands.Run(code, out.toString(), err.toString());
    }

    @Test
    void aNamespaceOnTheCommandLineIsCheckedBeforeAnyRequest() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            ObjectNode unnamed = ApplyCommandTest.only(DemoScenario.manifest(), "postgres").get(0);
            meta(unnamed).remove("namespace");
            Path noNamespace = Commands.manifest(home, List.of(unnamed));
            for (Path m : List.of(manifest, noNamespace)) {
                for (String command : List.of("apply", "plan")) {
                    Commands.Run r = command.equals("apply") ? Commands.run(h, command, "-f", m.toString(), "-n", "..", "--yes")
                            : Commands.run(h, command, "-f", m.toString(), "-n", "..");
                    assertThat(r.code()).as(r.describe()).isEqualTo(1);
                    assertThat(r.err()).as(r.describe()).startsWith("error: -n: the namespace \"..\" is not one kube-apiserver"
                            + " accepts (metadata.namespace: Invalid value: \"..\"").contains("Nothing was sent.").hasLineCount(1);
                }
            }
            Commands.Run job = renderJob("render-job", "-f", manifest.toString(), "-n", "..");
            assertThat(job.code()).as(job.describe()).isEqualTo(1);
            assertThat(job.err()).startsWith("error: -n: the namespace \"..\" is not one kube-apiserver accepts");
            assertThat(job.out()).isEmpty();
            Commands.Run resume = Commands.run(h, "resume", "../postgres");
            assertThat(resume.code()).as(resume.describe()).isEqualTo(1);
            assertThat(resume.err()).contains("the StatefulSet \"../postgres\" given to resume: the namespace \"..\" is not one"
                    + " kube-apiserver accepts (metadata.namespace: Invalid value: \"..\"").hasLineCount(1);
            Commands.Run resumeName = Commands.run(h, "resume", "shop/../../x");
            assertThat(resumeName.code()).as(resumeName.describe()).isEqualTo(1);
            assertThat(resumeName.err()).contains("metadata.name: Invalid value: \"../../x\"");
            assertThat(h.sim.requests()).as("not one request").isEmpty();
        }
    }
}
