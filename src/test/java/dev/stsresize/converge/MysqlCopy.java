package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Optional;

/**
 * The demo's mysql (class local-fixed: it cannot expand) copied to a bigger volume with {@code --copy}, on a {@link
 * MemoryWorld}: an Available PersistentVolume of its class planted, the run started, before its first turn.
 */
final class MysqlCopy {
    private MysqlCopy() {}

    static Convergence start(MemoryWorld w) {
        w.cluster.put(MemoryClusterState.json("{'apiVersion':'v1','kind':'PersistentVolume','metadata':{'name':'spare'},'spec':"
                + "{'storageClassName':'local-fixed','volumeMode':'Filesystem','capacity':{'storage':'50Gi'},'accessModes':"
                + "['ReadWriteOnce'],'local':{'path':'/mnt/disks/spare'}},'status':{'phase':'Available'}}"));
        Assessed a = new Assessor(w.cluster, w.heard).copying(CopyOptIn.withDefaults()).assess(List.of(MemoryWorld.declared("mysql")),
                false, Assessor.Depth.APPLY, false, Optional.empty()).items().get(0);
        assertThat(a.decision().verdict()).as(a.decision().detail()).isEqualTo(Verdict.COPY);
        return Convergence.start(w.steps, a, MemoryWorld.options().withCopy(CopyOptIn.withDefaults()), true);
    }

    /** The copy with the operator's yes at both gates: to the growth, and to the orphan delete of the StatefulSet standing now. */
    static Convergence startAllowed(MemoryWorld w) {
        Convergence m = start(w);
        m.answerGrow(true);
        m.allowDelete(new Steps.DeleteAllowed("legacy", "mysql", w.uid("StatefulSet", "legacy", "mysql")));
        return m;
    }
}
