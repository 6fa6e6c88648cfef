package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DemoCommandTest {
    @TempDir
    Path dir;

    record Outcome(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    static Outcome cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new Cli(new PrintWriter(out), new PrintWriter(err), Environment.system()).run(args);
        return new Outcome(exit, out.toString(), err.toString());
    }

    @Test
    void demo_serves_the_scenario_writes_manifest_and_kubeconfig_and_prints_the_commands_that_work_against_it() {
        AtomicReference<Outcome> plan = new AtomicReference<>();
        AtomicReference<ObjectNode> postgres = new AtomicReference<>();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new DemoCommand(Environment.system(), demo -> {
            assertThat(demo.manifest()).exists();
            assertThat(demo.kubeconfig()).exists();
            plan.set(cli("plan", "-f", demo.manifest().toString(), "--live", demo.live().toString(), "-A", "--color", "never"));
            postgres.set(demo.cluster().get("apps/v1", "StatefulSet", "shop", "postgres"));
        }));
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute("--speed", "fast", "--dir", dir.toString());
        Outcome demo = new Outcome(exit, out.toString(), err.toString());
        assertThat(exit).as(demo.toString()).isZero();
        assertThat(demo.err()).as(demo.toString()).isEmpty();
        assertThat(demo.out()).contains("shop/postgres: grows online", "legacy/etcd: up to date",
                "kubectl --kubeconfig " + dir.resolve("kubeconfig") + " get sts,pvc -A",
                "kubectl stsresize plan --kubeconfig " + dir.resolve("kubeconfig") + " -f " + dir.resolve("manifest.yaml") + " -A",
                "kubectl stsresize plan -f " + dir.resolve("manifest.yaml") + " --live " + dir.resolve("live.yaml") + " -A",
                "Serving until Ctrl-C.");
        assertThat(postgres.get()).as("the scenario is loaded").isNotNull();
        assertThat(plan.get().out()).as(plan.get().toString()).contains("postgres", "redis", "mysql");
        assertThat(plan.get().exit()).as("the scenario holds refusals on purpose: " + plan.get()).isEqualTo(ExitCodes.REFUSED);
    }

    @Test
    void demo_apply_converges_every_statefulset_it_may_and_exits_2_for_the_refusals_it_holds_on_purpose() {
        Outcome o = cli("demo", "--apply", "--speed", "fast", "--dir", dir.toString());
        assertThat(o.exit()).as(o.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(o.out()).as(o.toString()).contains("Running: kubectl stsresize apply --kubeconfig " + dir.resolve("kubeconfig"));
        // the cluster stops when the apply ends: no commands against it, no "Serving", and the offline plan after
        assertThat(o.out()).as(o.toString()).doesNotContain("Serving until Ctrl-C", "Try:", "get sts,pvc -A")
                .contains("the cluster stops after")
                .endsWith("kubectl stsresize plan -f " + dir.resolve("manifest.yaml") + " --live " + dir.resolve("live.yaml") + " -A"
                        + System.lineSeparator());
        String all = o.out() + o.err();
        // the outcome per StatefulSet, as apply reports it: read from the objects, not assumed
        assertThat(all).as(o.toString())
                .contains("shop/postgres: converged", "shop/minio: claims-grown")
                .contains("adopted by UID")
                .doesNotContain("Exception");
        assertThat(all).as(o.toString()).containsPattern("shop/redis.*(refused|REFUSED)");
    }

    @Test
    void the_manifest_declares_every_demo_statefulset() throws Exception {
        AtomicReference<String> manifest = new AtomicReference<>();
        CommandLine cl = new CommandLine(new DemoCommand(Environment.system(), demo -> {
            try {
                manifest.set(Files.readString(demo.manifest()));
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }));
        cl.setOut(new PrintWriter(new StringWriter()));
        assertThat(cl.execute("--speed", "fast", "--dir", dir.toString())).isZero();
        assertThat(manifest.get().split("\n---\n|^---\n")).hasSizeGreaterThanOrEqualTo(8);
        assertThat(manifest.get()).contains("name: kafka", "whenDeleted: Delete", "storage: 20Gi");
    }

    @Test
    void demo_apply_journals_beside_its_files_never_in_the_operators_state_folder_and_removes_its_kubeconfig() throws Exception {
        Path operatorState = Files.createDirectories(dir.resolve("operator-state"));
        Path demoDir = dir.resolve("demo");
        Environment operator = Environment.of(new java.io.ByteArrayInputStream(new byte[0]),
                java.util.Map.of("XDG_STATE_HOME", operatorState.toString(), "HOME", dir.resolve("home").toString()), false);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new Cli(new PrintWriter(out), new PrintWriter(err), operator).run("demo", "--apply", "--speed", "fast", "--dir", demoDir.toString());
        Outcome o = new Outcome(exit, out.toString(), err.toString());
        assertThat(exit).as(o.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(o.out()).as(o.toString()).contains("shop/postgres: converged");
        try (var written = Files.list(operatorState)) {
            assertThat(written.toList()).as("the operator's state folder after the demo: " + o).isEmpty();
        }
        assertThat(dir.resolve("home")).as("nothing under the operator's home either").doesNotExist();
        assertThat(o.out() + o.err()).as("the demo's runs journalled beside its files: " + o)
                .contains("record kept in Secret shop/stsresize-postgres and in " + demoDir.resolve("state/kubectl-stsresize"));
        // every run ended, so its journal was emptied again: no empty folder is left behind
        assertThat(demoDir.resolve("state")).as("the demo's state folder, emptied by its runs").doesNotExist();
        assertThat(demoDir.resolve("kubeconfig")).as("the admin kubeconfig, once the demo ended").doesNotExist();
        assertThat(demoDir.resolve("manifest.yaml")).as("the manifest stays for an offline plan").exists();
    }

    @Test
    void the_kubeconfig_serves_while_the_demo_runs_and_stays_after_it_only_when_asked() {
        for (boolean keep : new boolean[] {false, true}) {
            Path folder = dir.resolve("keep-" + keep);
            AtomicReference<Boolean> whileServing = new AtomicReference<>();
            CommandLine cl = new CommandLine(new DemoCommand(Environment.system(), demo -> whileServing.set(Files.exists(demo.kubeconfig()))));
            cl.setOut(new PrintWriter(new StringWriter()));
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--speed", "fast", "--dir", folder.toString()));
            if (keep) {
                args.add("--keep-kubeconfig");
            }
            assertThat(cl.execute(args.toArray(new String[0]))).isZero();
            assertThat(whileServing.get()).as("the kubeconfig exists while serving").isTrue();
            assertThat(Files.exists(folder.resolve("kubeconfig"))).as("kubeconfig after the demo, --keep-kubeconfig " + keep).isEqualTo(keep);
        }
    }
}
