package dev.stsresize.converge;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test on a fresh {@link MemoryWorld} of its own (the demo cluster in memory) and the steps a
 * driver advances there; a second world, where a test needs one, goes in a folder of {@link #home}.
 */
abstract class OnMemoryWorld {
    @TempDir Path home;
    MemoryWorld w;
    Steps steps;

    @BeforeEach
    void world() {
        w = new MemoryWorld(home);
        steps = w.steps;
    }

    /** Another world beside this test's, for a run that must not meet the first one's. */
    MemoryWorld another(String name) {
        return new MemoryWorld(home.resolve(name));
    }

    /** An operator who says {@code grow} to the growth, {@code orphanDelete} to the orphan delete and {@code copy} to a copy. */
    static GateAnswers answering(boolean grow, boolean orphanDelete, boolean copy) {
        return new GateAnswers() {
            @Override
            public boolean allowGrow(dev.stsresize.plan.Decision decision) {
                return grow;
            }

            @Override
            public boolean allowOrphanDelete(String namespace, String name) {
                return orphanDelete;
            }

            @Override
            public boolean allowCopy(dev.stsresize.plan.Decision decision) {
                return copy;
            }
        };
    }

    /** Advances {@code m} turn by turn until it stands at {@code position}; a run that ends before fails the test. */
    static Convergence advanceTo(Convergence m, Phase position) {
        while (m.position() != position) {
            if (m.finished() != null) {
                throw new AssertionError("ended before " + position + ": " + m.finished());
            }
            m.advance();
        }
        return m;
    }

    /** Advances {@code m} turn by turn until it has ended; answers its last turn. */
    static Convergence.Turn finish(Convergence m) {
        while (m.finished() == null) {
            m.advance();
        }
        return m.finished();
    }
}
