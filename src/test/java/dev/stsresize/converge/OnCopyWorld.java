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
        return OnMemoryWorld.finish(c.start()).result();
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
