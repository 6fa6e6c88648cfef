package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cli.Prompter;
import dev.stsresize.sim.controller.Timings;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.http.RecordedRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code apply} stopped as Ctrl-C, SIGHUP or SIGTERM stops it (the stop request its signal handlers set),
 * through the real command line: the whole command stops at the next safe point with exit 130, says for
 * each StatefulSet where it stands and the {@code resume} that finishes it, keeps the record and frees
 * the Lease; Ctrl-C at a prompt stops the whole command, not only its StatefulSet.
 */
class StopCommandTest {
    /** Claims take 1.5 s to grow: a wait that is still going on when the test stops it. */
    private static final Timings SLOW_RESIZER = new Timings(0, 2, 1, 2, 2, 5, 2, 1500, 3, 5);

    @TempDir Path home;

    @Test
    void a_stop_in_the_wait_for_capacity_exits_130_keeps_the_record_frees_the_lease_and_resume_finishes_it() {
        try (Harness h = Harness.start(home, DemoScenario.cluster(), SLOW_RESIZER)) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            Map<String, String> pods = podUids(h);
            StopRequest stop = new StopRequest();
            // as SIGTERM would: once the three claims are patched and the wait for their capacity watches them
            Thread signal = new Thread(() -> {
                Harness.await("the wait for capacity", () -> waitingForCapacity(h.sim.requests()));
                stop.request("SIGTERM");
            });
            signal.start();
            Commands.Run r = Commands.run(h, Optional::empty, Checkpoint.NONE, stop, "apply", "-f", manifest.toString(), "--yes",
                    "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isEqualTo(130);
            assertThat(r.out()).as(r.describe()).contains("shop/postgres: stopped - at phase growing (SIGTERM)");
            // a stop is a stop: not a failure, nor a warning
            assertThat(r.out() + r.err()).as(r.describe()).doesNotContain("failed (stopped)", "WARNING [record]", "failed: stopped")
                    .contains("[record] shop/postgres: stopped: at phase growing (SIGTERM)");
            assertThat(r.err()).as(r.describe()).contains("Stopped (SIGTERM)",
                    "shop/postgres (phase growing): kubectl stsresize resume shop/postgres");
            assertThat(h.writes()).as("nothing written to the StatefulSet").noneMatch(w -> "statefulsets".equals(w.resource()));
            assertRecordKeptAndLeaseFree(h, "growing");

            // another operator (no journal of this run): the Lease is free, so resume starts at once, from Lease and Secret
            h.journal.remove("shop", "postgres");
            Commands.Run resumed = Commands.run(h, Map.of("USER", "bob"), Optional::empty, Checkpoint.NONE, new StopRequest(),
                    "resume", "shop/postgres", "--yes", "--timeout", "60s");
            assertThat(resumed.code()).as(resumed.describe()).isZero();
            assertThat(resumed.out()).contains("shop/postgres: converged");
            assertThat(podUids(h)).as("the pods kept their UIDs").isEqualTo(pods);
            ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
            assertThat(lease.at("/metadata/annotations/stsresize.dev~1phase").asText()).isEqualTo("released");
            assertThat(h.get("v1", "Secret", "shop", "stsresize-postgres")).isNull();
        }
    }

    @Test
    void a_lost_terminal_at_the_name_gate_exits_130_and_the_next_apply_finishes_the_run() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            Map<String, String> pods = podUids(h);
            String uid = Harness.uid(h.sts("shop", "postgres"));
            StopRequest stop = new StopRequest();
            List<String> asked = new ArrayList<>();
            // SIGHUP while the name is being asked for: the question ends (as TerminalPrompter's read does) and the command stops
            Prompter terminal = new Prompter() {
                private final CountDownLatch cancelled = new CountDownLatch(1);

                @Override
                public String ask(String question) {
                    asked.add(question);
                    if (question.startsWith("Grow")) {
                        return "y";
                    }
                    stop.request("SIGHUP");
                    try {
                        assertThat(cancelled.await(30, TimeUnit.SECONDS)).as("the question was ended by the stop").isTrue();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new Prompter.Interrupted();
                }

                @Override
                public void cancel() {
                    cancelled.countDown();
                }
            };
            Commands.Run r = Commands.run(h, () -> Optional.of(terminal), Checkpoint.NONE, stop, "apply", "-f", manifest.toString(),
                    "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isEqualTo(130);
            assertThat(asked).hasSize(2);
            assertThat(r.err()).as(r.describe()).contains("Stopped (SIGHUP)",
                    "shop/postgres (phase growing): kubectl stsresize resume shop/postgres");
            assertThat(Harness.uid(h.sts("shop", "postgres"))).as("not deleted").isEqualTo(uid);
            assertRecordKeptAndLeaseFree(h, "growing");

            // the same manifest again: its unfinished run is finished first, with nothing more to ask
            Commands.Run again = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "--timeout", "60s");
            assertThat(again.code()).as(again.describe()).isZero();
            assertThat(again.err()).contains("StatefulSet shop/postgres has an unfinished run (phase growing");
            assertThat(again.out()).contains("shop/postgres: converged");
            assertThat(podUids(h)).as("the pods kept their UIDs").isEqualTo(pods);
            assertThat(h.journal.all()).isEmpty();
        }
    }

    @Test
    void ctrl_c_at_the_grow_prompt_stops_the_whole_command_and_asks_nothing_more() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres", "minio"));
            List<String> asked = new ArrayList<>();
            Commands.Run r = Commands.run(h, () -> Optional.of(q -> {
                asked.add(q);
                throw new Prompter.Interrupted(); // what TerminalPrompter says for Ctrl-C at its question
            }), Checkpoint.NONE, "apply", "-f", manifest.toString(), "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isEqualTo(130);
            assertThat(asked).as("asked once, not once per StatefulSet").hasSize(1);
            assertThat(r.out()).contains("shop/minio: stopped - before the first write", "shop/postgres: stopped - before the first write",
                    "nothing was written and there is nothing to resume");
            assertThat(r.err()).contains("Stopped (Ctrl-C at the prompt): no run was left midway, nothing to resume.")
                    .doesNotContain("kubectl stsresize resume shop/");
            assertThat(h.writes()).as("nothing written").isEmpty();
        }
    }

    @Test
    void ctrl_c_at_the_name_gate_keeps_the_record_and_says_how_to_resume() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            Commands.Run r = Commands.run(h, () -> Optional.of(q -> {
                if (q.startsWith("Grow")) {
                    return "y";
                }
                throw new Prompter.Interrupted();
            }), Checkpoint.NONE, "apply", "-f", manifest.toString(), "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isEqualTo(130);
            assertThat(r.err()).contains("Stopped (Ctrl-C at the prompt)", "kubectl stsresize resume shop/postgres");
            assertRecordKeptAndLeaseFree(h, "growing");
        }
    }

    @Test
    void the_end_of_input_at_the_name_gate_stops_too_a_closed_terminal_ends_the_read_before_its_sighup_comes() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            Commands.Run r = Commands.run(h, () -> Optional.of(q -> q.startsWith("Grow") ? "y" : null), Checkpoint.NONE, "apply", "-f",
                    manifest.toString(), "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isEqualTo(130);
            assertThat(r.out()).contains("shop/postgres: stopped - at phase growing (end of input at the prompt)");
            assertThat(r.err()).contains("shop/postgres (phase growing): kubectl stsresize resume shop/postgres");
            assertRecordKeptAndLeaseFree(h, "growing");
        }
    }

    @Test
    void a_typo_at_the_name_gate_is_asked_again_and_the_right_name_then_deletes() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            List<String> answers = new ArrayList<>(List.of("y", "postgre", "postgress", "postgres"));
            List<String> asked = new ArrayList<>();
            Commands.Run r = Commands.run(h, () -> Optional.of(q -> {
                asked.add(q);
                return answers.remove(0);
            }), Checkpoint.NONE, "apply", "-f", manifest.toString(), "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isZero();
            assertThat(asked).hasSize(4);
            assertThat(r.err()).contains("\"postgre\" is not \"postgres\": nothing was deleted; type its name exactly",
                    "\"postgress\" is not \"postgres\"");
            assertThat(r.out()).contains("shop/postgres: converged");
        }
    }

    @Test
    void a_real_sigterm_during_apply_reaches_its_stop_request_and_the_handler_before_is_put_back() {
        // a probe of the test's own as the handler before: a SIGTERM that apply did not catch reaches it, not the JVM's exit
        sun.misc.Signal term = new sun.misc.Signal("TERM");
        List<String> probed = new java.util.concurrent.CopyOnWriteArrayList<>();
        sun.misc.SignalHandler probe = s -> probed.add(s.getName());
        sun.misc.SignalHandler jvm = sun.misc.Signal.handle(term, probe);
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, ApplyCommandTest.only(DemoScenario.manifest(), "postgres"));
            StopRequest stop = new StopRequest();
            Checkpoint kill = w -> {
                if (w.equals("lock postgres")) {
                    sun.misc.Signal.raise(term);
                    Harness.await("SIGTERM handled", () -> stop.requested() || !probed.isEmpty());
                }
            };
            Commands.Run r = Commands.run(h, Optional::empty, kill, stop, "apply", "-f", manifest.toString(), "--yes", "--timeout", "60s");
            assertThat(probed).as("apply's handler, not the one before, got it").isEmpty();
            assertThat(r.code()).as(r.describe()).isEqualTo(130);
            assertThat(r.err()).contains("SIGTERM: stopping at the next safe point", "Stopped (SIGTERM)",
                    "shop/postgres (phase locked): kubectl stsresize resume shop/postgres");
            assertRecordKeptAndLeaseFree(h, "locked");
            assertThat(sun.misc.Signal.handle(term, probe)).as("the handler before put back").isSameAs(probe);
        } finally {
            sun.misc.Signal.handle(term, jvm);
        }
    }

    /** The record stays (Secret, journal, the Lease's phase and digest) and the Lease has no holder: resume need not wait for it. */
    private static void assertRecordKeptAndLeaseFree(Harness h, String phase) {
        ObjectNode lease = h.get("coordination.k8s.io/v1", "Lease", "shop", "stsresize-postgres");
        assertThat(lease.at("/spec/holderIdentity").asText("")).as("the Lease's holder freed: " + lease).isEmpty();
        assertThat(lease.at("/metadata/annotations/stsresize.dev~1phase").asText()).isEqualTo(phase);
        assertThat(lease.at("/metadata/annotations/stsresize.dev~1record-sha256").asText()).isNotEmpty();
        assertThat(lease.at("/metadata/annotations/stsresize.dev~1holder-process").isMissingNode()).isTrue();
        assertThat(h.get("v1", "Secret", "shop", "stsresize-postgres")).as("the record's Secret").isNotNull();
        assertThat(h.journal.read("shop", "postgres")).as("the journal").get().extracting(Record::phase).isEqualTo(phase);
    }

    private static boolean waitingForCapacity(List<RecordedRequest> log) {
        int patched = 0;
        for (RecordedRequest q : List.copyOf(log)) {
            if (q.method().equals("PATCH") && "persistentvolumeclaims".equals(q.resource()) && !q.dryRun()) {
                patched++;
            } else if (patched == 3 && q.method().equals("GET") && "persistentvolumeclaims".equals(q.resource())
                    && "true".equals(q.param("watch"))) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> podUids(Harness h) {
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < 3; i++) {
            out.put("postgres-" + i, Harness.uid(h.pod("shop", "postgres-" + i)));
        }
        return out;
    }
}
