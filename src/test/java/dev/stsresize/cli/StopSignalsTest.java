package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.converge.StopRequest;
import dev.stsresize.testkit.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Real signals raised in this JVM while {@link StopSignals} is installed: each becomes the command's stop
 * request (the handlers of the JVM would exit at once instead), a second Ctrl-C exits at once, a repeated
 * SIGHUP does not, and the handlers that were there before come back. A signal is only raised here while
 * a handler of the test's own is in place, never the JVM's.
 */
class StopSignalsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Test
    void sighup_stops_the_command_a_second_sighup_does_not_exit_a_second_ctrl_c_does() {
        withProbes(() -> {
            StopRequest stop = new StopRequest();
            StringWriter err = new StringWriter();
            List<Integer> exits = new CopyOnWriteArrayList<>();
            try (StopSignals signals = StopSignals.install(stop, new PrintWriter(err, true), exits::add)) {
                Signal.raise(new Signal("HUP"));
                Await.until("the stop requested", DEADLINE, Duration.ofMillis(5), stop::requested);
                assertThat(stop.reason()).isEqualTo("SIGHUP");
                assertThat(err.toString()).contains("SIGHUP: stopping at the next safe point", "Ctrl-C again to exit at once");

                Signal.raise(new Signal("HUP"));
                Signal.raise(new Signal("INT"));
                Await.until("the exit at once", DEADLINE, Duration.ofMillis(5), () -> !exits.isEmpty());
                assertThat(exits).containsExactly(130);
                assertThat(err.toString()).contains("SIGINT again: exiting at once");
            }
        });
    }

    @Test
    void sigterm_and_ctrl_c_stop_the_command_with_their_names() {
        for (String name : List.of("TERM", "INT")) {
            withProbes(() -> {
                StopRequest stop = new StopRequest();
                try (StopSignals signals = StopSignals.install(stop, new PrintWriter(new StringWriter()), code -> { })) {
                    Signal.raise(new Signal(name));
                    Await.until("the stop requested", DEADLINE, Duration.ofMillis(5), stop::requested);
                    assertThat(stop.reason()).isEqualTo("SIG" + name);
                }
            });
        }
    }

    @Test
    void the_stop_is_said_on_a_line_of_its_own_never_glued_to_the_waits_line_rewritten_in_place() {
        withProbes(() -> {
            StopRequest stop = new StopRequest();
            StringWriter err = new StringWriter();
            PrintWriter w = new PrintWriter(err, true);
            ProgressPrinter progress = new ProgressPrinter(w, 200);
            try (StopSignals signals = StopSignals.install(stop, w, code -> { })) {
                signals.endingLinesWith(progress::endLine);
                progress.waiting(new dev.stsresize.converge.WaitTick("shop", "db", dev.stsresize.converge.Phase.GROW,
                        "the capacity of claim data-db-0 to reach 2Gi", Duration.ofSeconds(3), Duration.ofMinutes(9), List.of()));
                Signal.raise(new Signal("INT"));
                Await.until("the stop said", DEADLINE, Duration.ofMillis(5), () -> err.toString().contains("stopping"));
                String said = err.toString();
                assertThat(said).as(said).contains("to reach 2Gi\nSIGINT: stopping at the next safe point");
                // the next line of the run starts a line of its own too, and does not erase the wait's line
                progress.on(dev.stsresize.converge.ProgressEvent.info("shop", "db", dev.stsresize.converge.Phase.RECORD, "stopped"));
                assertThat(err.toString().substring(said.length())).as(err.toString()).startsWith("[record]");
            }
        });
    }

    /**
     * Runs {@code body} with a probe handler of this test on each signal (so a signal raised after
     * {@link StopSignals#close} reaches the probe, not the JVM's exit), checks that close put each probe
     * back, then puts the JVM's own handlers back.
     */
    private static void withProbes(Runnable body) {
        List<String> names = List.of("INT", "HUP", "TERM");
        SignalHandler probe = s -> { };
        List<SignalHandler> jvm = names.stream().map(n -> Signal.handle(new Signal(n), probe)).toList();
        // a signal ignored when the JVM started (nohup's SIGHUP; SIGINT of a job a non-interactive shell put in the
        // background) is never delivered to a handler, the JVM's choice as every Unix tool's: nothing to test then
        for (int i = 0; i < names.size(); i++) {
            if (jvm.get(i) == SignalHandler.SIG_IGN) {
                Signal.handle(new Signal(names.get(i)), SignalHandler.SIG_IGN);
            }
        }
        Assumptions.assumeFalse(jvm.contains(SignalHandler.SIG_IGN),
                "SIG" + names.get(Math.max(0, jvm.indexOf(SignalHandler.SIG_IGN))) + " was ignored when this JVM started (nohup, or a background job), so no handler receives it");
        try {
            body.run();
            for (String n : names) {
                assertThat(Signal.handle(new Signal(n), probe)).as("SIG" + n + "'s handler put back").isSameAs(probe);
            }
        } finally {
            for (int i = 0; i < names.size(); i++) {
                Signal.handle(new Signal(names.get(i)), jvm.get(i));
            }
        }
    }
}
