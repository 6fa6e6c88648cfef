package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The assessment with the operator's {@code --copy} on the in-memory demo cluster: the opt-in reaches the decision, and
 * the PersistentVolumes are listed only for a copy into a no-provisioner class (the demo's mysql is on local-fixed).
 */
class AssessorCopyTest extends OnMemoryWorld {
    private Assessment assess(String name, CopyOptIn copy) {
        return new Assessor(w.cluster, w.heard).copying(copy).assess(List.of(MemoryWorld.declared(name)), false, Assessor.Depth.PLAN,
                false, Optional.empty());
    }

    /** An Available PersistentVolume made by hand, as a no-provisioner class needs. */
    private static ObjectNode available(String name, String cls, String size) {
        ObjectNode pv = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        pv.put("apiVersion", "v1").put("kind", "PersistentVolume");
        pv.putObject("metadata").put("name", name).put("uid", "uid-" + name);
        ObjectNode spec = pv.putObject("spec");
        spec.put("storageClassName", cls).put("volumeMode", "Filesystem");
        spec.putObject("capacity").put("storage", size);
        spec.putArray("accessModes").add("ReadWriteOnce");
        spec.putObject("local").put("path", "/mnt/disks/" + name);
        pv.putObject("status").put("phase", "Available");
        return pv;
    }

    private List<String> volumeLists() {
        return w.cluster.reads().stream().filter(r -> r.startsWith("listPersistentVolumes")).toList();
    }

    @Test
    void without_the_opt_in_a_class_that_cannot_grow_is_refused_and_no_volume_is_listed() {
        Assessed mysql = assess("mysql", CopyOptIn.NONE).items().get(0);
        assertThat(mysql.decision().verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(mysql.decision().detail()).contains("a copy to bigger volumes is possible: --copy");
        assertThat(volumeLists()).isEmpty();
    }

    @Test
    void with_the_opt_in_a_no_provisioner_class_lists_the_volumes_once_and_blocks_naming_what_to_create() {
        Assessed mysql = assess("mysql", CopyOptIn.withDefaults()).items().get(0);
        assertThat(volumeLists()).containsExactly("listPersistentVolumes ");
        assertThat(mysql.decision().verdict()).as(mysql.decision().detail()).isEqualTo(Verdict.BLOCKED);
        assertThat(((Refusal) mysql.decision()).reason().label()).isEqualTo("copy-no-volume");
        assertThat(mysql.decision().detail()).contains("for claim \"data-mysql-0\": an Available PersistentVolume of class \"local-fixed\", at least 40Gi, ReadWriteOnce");
        assertThat(w.cluster.realWrites()).isEmpty();
    }

    @Test
    void an_available_volume_that_fits_makes_it_a_copy_plan_whose_claims_are_copied_not_patched() {
        ObjectNode pv = available("spare", "local-fixed", "50Gi");
        w.cluster.put(pv);
        Assessed mysql = assess("mysql", CopyOptIn.withDefaults()).items().get(0);
        assertThat(mysql.decision().verdict()).as(mysql.decision().detail()).isEqualTo(Verdict.COPY);
        assertThat(mysql.decision().claimsToCopy()).extracting(c -> c.name()).containsExactly("data-mysql-0");
        assertThat(mysql.decision().claimsToGrow()).isEmpty();
        assertThat(mysql.reapply()).as("a copy re-applies the StatefulSet: its object is built").isNotNull();
    }

    @Test
    void forbidden_volumes_are_a_note_and_a_block_that_says_so() {
        w.cluster.persistentVolumesForbidden = true;
        Assessment all = assess("mysql", CopyOptIn.withDefaults());
        assertThat(all.notes()).anySatisfy(n -> assertThat(n).startsWith("PersistentVolumes cannot be listed (persistentvolumes is forbidden)"));
        assertThat(all.items().get(0).decision().detail()).contains("the PersistentVolumes could not be read");
    }

    @Test
    void a_copy_into_a_class_that_provisions_lists_no_volume() {
        assess("postgres", CopyOptIn.withDefaults());
        assess("mysql", new CopyOptIn(true, Optional.of("fast-online"), CopyOptIn.DEFAULT_IMAGE));
        assertThat(volumeLists()).isEmpty();
    }
}
