package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.converge.ReadBack.CopyStage;
import dev.stsresize.converge.ReadBack.CopyStatus;
import dev.stsresize.plan.Decision;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where each claim of a copy stands, read from the objects (the claim under its own name, its copy pod), as the wizard's
 * table shows it while the copy goes pod by pod: never from the run's own account.
 */
class ReadBackCopiesTest extends OnCopyWorld {
    private List<CopyStatus> readNow(Decision d) {
        return new ReadBack(c.cluster).copies(d);
    }

    private CopyStage stageOf(Decision d, String claim) {
        return readNow(d).stream().filter(s -> s.name().equals(claim)).findFirst().orElseThrow().stage();
    }

    @Test
    void eachClaimMovesFromToCopyThroughCopyingToCopiedAsItsObjectsDo() {
        Convergence m = c.start();
        Decision d = c.assess().decision();
        assertThat(readNow(d)).extracting(CopyStatus::stage).containsExactly(CopyStage.TO_COPY, CopyStage.TO_COPY);
        assertThat(readNow(d)).extracting(CopyStatus::target).containsOnly("2Gi");

        List<CopyStage> seen = new ArrayList<>();
        while (m.finished() == null) {
            m.advance();
            CopyStage now = stageOf(d, CopyWorld.claim(1));
            if (seen.isEmpty() || seen.get(seen.size() - 1) != now) {
                seen.add(now);
            }
        }
        // its re-binding (delete, claimRef, create, Bound) is one turn's work: between turns it is copying, then copied
        assertThat(seen).as("data-web-1, the first copied (highest ordinal first)").containsSubsequence(CopyStage.COPYING, CopyStage.COPIED);
        assertThat(readNow(d)).allSatisfy(s -> {
            assertThat(s.stage()).isEqualTo(CopyStage.COPIED);
            assertThat(s.request()).isEqualTo("2Gi");
            assertThat(s.capacity()).isEqualTo("2Gi");
        });
    }

    @Test
    void aClaimBelowTheTargetIsCopyingOnlyWhileItsCopyPodStands() {
        Decision d = c.assess().decision();
        String claim = CopyWorld.claim(0);
        assertThat(ReadBack.copyStatus(d.claimsToCopy().get(0), c.cluster.get("PersistentVolumeClaim", NS, claim), () -> true).stage())
                .isEqualTo(CopyStage.COPYING);
        assertThat(ReadBack.copyStatus(d.claimsToCopy().get(0), c.cluster.get("PersistentVolumeClaim", NS, claim), () -> false).stage())
                .isEqualTo(CopyStage.TO_COPY);
    }

    @Test
    void aClaimAtTheTargetIsCopiedOnlyOnceBoundAtTheTargetAndAGoneOneIsRebinding() {
        Decision d = c.assess().decision();
        var toCopy = d.claimsToCopy().stream().filter(s -> s.name().equals(CopyWorld.claim(0))).findFirst().orElseThrow();
        var claim = c.cluster.get("PersistentVolumeClaim", NS, CopyWorld.claim(0)).orElseThrow();
        Objects.child(Objects.child(Objects.child(claim, "spec"), "resources"), "requests").put("storage", "2Gi");
        var status = Objects.child(claim, "status");
        status.put("phase", "Pending");
        status.remove("capacity");
        assertThat(ReadBack.copyStatus(toCopy, java.util.Optional.of(claim), () -> false).stage()).as("created again, not yet Bound")
                .isEqualTo(CopyStage.REBINDING);
        status.put("phase", "Bound");
        Objects.child(status, "capacity").put("storage", "1Gi");
        assertThat(ReadBack.copyStatus(toCopy, java.util.Optional.of(claim), () -> false).stage()).as("Bound below the target")
                .isEqualTo(CopyStage.REBINDING);
        Objects.child(status, "capacity").put("storage", "2Gi");
        assertThat(ReadBack.copyStatus(toCopy, java.util.Optional.of(claim), () -> false).stage()).isEqualTo(CopyStage.COPIED);
        CopyStatus gone = ReadBack.copyStatus(toCopy, java.util.Optional.empty(), () -> true);
        assertThat(gone).isEqualTo(new CopyStatus(CopyWorld.claim(0), "", "", "2Gi", CopyStage.REBINDING));
    }

    @Test
    void aClaimThatCannotBeReadIsLeftOutOfThisReading() {
        Decision d = c.assess().decision();
        // data-web-0's read fails (the claims are read beside each other, so the one to fail is named, not the first)
        dev.stsresize.cluster.Cluster failing = (dev.stsresize.cluster.Cluster) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {dev.stsresize.cluster.Cluster.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getClaim") && CopyWorld.claim(0).equals(args[1])) {
                        throw MemoryCluster.error(500, "InternalError", "etcd down");
                    }
                    try {
                        return method.invoke(c.cluster, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        assertThat(new ReadBack(failing).copies(d)).extracting(CopyStatus::name).containsExactly(CopyWorld.claim(1));
    }

    @Test
    void aGrowCopiesNothing() {
        MemoryWorld grow = new MemoryWorld(home.resolve("grow"));
        assertThat(new ReadBack(grow.cluster).copies(grow.assess("postgres").decision())).isEmpty();
    }
}
