package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cli.Cli;
import dev.stsresize.sim.demo.DemoScenario;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin's end-to-end path is every real user's: HTTPS to a server whose CA is in the kubeconfig,
 * authenticated by a client certificate (the kubeconfig's admin), a bearer token, or an exec plugin.
 */
class CredentialsOverTlsTest {
    @TempDir Path home;

    static Commands.Run plan(Harness h, Path manifest, String... extra) {
        String[] args = new String[3 + extra.length];
        args[0] = "plan";
        args[1] = "-f";
        args[2] = manifest.toString();
        System.arraycopy(extra, 0, args, 3, extra.length);
        return Commands.run(h, args);
    }

    static void assertPlannedAs(Harness h, Commands.Run r, String user) {
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.out()).contains("postgres");
        assertThat(h.sim.requests()).isNotEmpty().allSatisfy(q -> assertThat(q.user()).as(q.toString()).isEqualTo(user));
    }

    @Test
    void a_client_certificate_the_kubeconfigs_admin() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            assertThat(h.sim.url()).startsWith("https://");
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            assertPlannedAs(h, plan(h, manifest), "kubernetes-admin");
        }
    }

    @Test
    void a_bearer_token() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            assertPlannedAs(h, plan(h, manifest, "--context", "sim-token"), "kubernetes-admin");
        }
    }

    @Test
    void an_exec_plugin_and_a_token_it_prints_that_the_server_refuses() throws IOException {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            Path good = execPlugin("good-token", h.sim.adminToken());
            Path bad = execPlugin("bad-token", "sim-not-issued");
            Path kc = home.resolve("kubeconfig-exec");
            Files.writeString(kc, Files.readString(h.kubeconfig())
                    .replace("contexts:\n", "contexts:\n- name: sim-exec\n  context:\n    cluster: sim\n    user: exec\n"
                            + "- name: sim-exec-bad\n  context:\n    cluster: sim\n    user: exec-bad\n")
                    .replace("users:\n", "users:\n" + execUser("exec", good) + execUser("exec-bad", bad)));
            Commands.Run r = cli(h, "plan", "-f", manifest.toString(), "--kubeconfig", kc.toString(), "--context", "sim-exec");
            assertPlannedAs(h, r, "kubernetes-admin");
            int before = h.sim.requests().size();
            Commands.Run refused = cli(h, "plan", "-f", manifest.toString(), "--kubeconfig", kc.toString(), "--context", "sim-exec-bad");
            assertThat(refused.code()).as(refused.describe()).isNotZero();
            assertThat(refused.err()).as(refused.describe()).containsIgnoringCase("unauthorized");
            assertThat(h.sim.requests().subList(before, h.sim.requests().size())).isNotEmpty()
                    .allSatisfy(q -> assertThat(q.status()).as("a token nobody issued: 401").isEqualTo(401));
        }
    }

    /** The command line with the harness's environment and this test's own kubeconfig. */
    private static Commands.Run cli(Harness h, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(err), new ByteArrayInputStream(new byte[0]), h.env(), false,
                Optional::empty, Checkpoint.NONE).run(args);
        return new Commands.Run(code, out.toString(), err.toString());
    }

    private Path execPlugin(String name, String token) throws IOException {
        Path p = home.resolve(name);
        Files.writeString(p, "#!/bin/sh\nprintf '%s' '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                + "\"status\":{\"token\":\"" + token + "\"}}'\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    private static String execUser(String name, Path command) {
        return "- name: " + name + "\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: " + command
                + "\n      interactiveMode: Never\n";
    }
}
