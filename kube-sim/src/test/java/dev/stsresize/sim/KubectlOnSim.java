package dev.stsresize.sim;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class that asks the real kubectl: one simulated cluster for the whole class, and kubectl as its admin.
 * Each test works in a namespace of its own ({@link #freshNamespace}). Skipped where kubectl is not installed.
 */
abstract class KubectlOnSim {
    @TempDir
    static Path dir;
    static SimCluster sim;
    static Kubectl kubectl;
    private static final AtomicInteger namespaces = new AtomicInteger();

    @BeforeAll
    static void startSimAndKubectl() {
        assumeTrue(Kubectl.available(), Kubectl.ABSENT);
        sim = SimCluster.start();
        kubectl = Kubectl.admin(sim, dir);
    }

    @AfterAll
    static void stopSim() {
        if (sim != null) {
            sim.close();
        }
    }

    /** A namespace, created, that no test of this class has used. */
    static String freshNamespace() {
        String ns = "k" + namespaces.incrementAndGet();
        sim.load(Fixtures.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns + "}\n"));
        return ns;
    }
}
