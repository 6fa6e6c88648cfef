package dev.stsresize.converge;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A test on a fresh {@link CopyWorld} of its own (the copy scenario in memory); a second one goes in a folder of {@link #home}. */
abstract class OnCopyWorld {
    @TempDir Path home;
    CopyWorld c;

    @BeforeEach
    void copyWorld() {
        c = new CopyWorld(home);
    }

    /** A copy run from its start to its end, the operator saying yes at both gates: its result. */
    StatefulSetResult run() {
        return end(c.start()).result();
    }

    /** Advances {@code m} until it has ended; answers the turn its last advance said, the one it ended on. */
    static Convergence.Turn end(Convergence m) {
        Convergence.Turn last = null;
        while (m.finished() == null) {
            last = m.advance();
        }
        if (last != m.finished()) {
            throw new AssertionError("the last turn said " + last + ", the run ended on " + m.finished());
        }
        return last;
    }

    /** A copy run advanced to {@code phase}, whose next turn fails with the server's {@code message}: the run ends there as a crash. */
    Convergence failingIn(Phase phase, String message) {
        Convergence m = c.start();
        OnMemoryWorld.advanceTo(m, phase);
        org.assertj.core.api.Assertions.assertThatThrownBy(m::advance).hasMessage(message);
        return m;
    }

    /** {@code then} done by someone else right after the first write {@code method} of {@code name}. */
    void after(String method, String name, Runnable then) {
        boolean[] done = {false};
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> {
            if (!done[0] && call.method().equals(method) && call.name().equals(name)) {
                done[0] = true;
                then.run();
            }
        });
    }
}
