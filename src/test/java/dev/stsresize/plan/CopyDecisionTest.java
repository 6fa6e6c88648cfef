package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The copy migration's decision: a StatefulSet refused only for want of expansion, with and without the
 * operator's {@code --copy}. Each row is one cluster: a two-replica {@code web} whose manifest asks 2Gi of claims at 1Gi.
 */
class CopyDecisionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CopyOptIn COPY = CopyOptIn.withDefaults();
    private static final String POSSIBLE = "a copy to bigger volumes is possible: --copy (one pod at a time, each down while its data is copied)";

    /** One cluster and what the decision must be. */
    record Row(Cluster cluster, CopyOptIn optIn, String verdict, String reason, List<String> copied, List<String> grown,
            List<String> detail, List<String> notInDetail) {
        Row withOptIn(CopyOptIn o) {
            return new Row(cluster, o, verdict, reason, copied, grown, detail, notInDetail);
        }

        Row saying(List<String> in, List<String> notIn) {
            return new Row(cluster, optIn, verdict, reason, copied, grown, in, notIn);
        }
    }

    /** A {@code web} StatefulSet of two replicas on class {@code cls} and the cluster around it, changed by each row. */
    static final class Cluster {
        String liveSize = "1Gi";
        final List<ObjectNode> claims = new ArrayList<>();
        final List<ObjectNode> classes = new ArrayList<>();
        final List<ObjectNode> drivers = new ArrayList<>();
        PersistentVolumes volumes = PersistentVolumes.NOT_READ;
        boolean classesKnown = true;
        String declaredService = "web";

        Cluster(String cls, String provisioner, boolean expandable) {
            classes.add(storageClass(cls, provisioner, expandable));
            drivers.add(csiDriver("ebs.csi.aws.com"));
            claims.add(claim("data-web-0", cls, "1Gi", "pv-0"));
            claims.add(claim("data-web-1", cls, "1Gi", "pv-1"));
        }

        Cluster with(Consumer<Cluster> change) {
            change.accept(this);
            return this;
        }

        ObjectNode claimAt(int ordinal) {
            return claims.get(ordinal);
        }
    }

    static ObjectNode storageClass(String name, String provisioner, boolean expandable) {
        ObjectNode sc = JSON.createObjectNode();
        sc.putObject("metadata").put("name", name);
        sc.put("provisioner", provisioner);
        if (expandable) {
            sc.put("allowVolumeExpansion", true);
        }
        return sc;
    }

    static ObjectNode csiDriver(String name) {
        ObjectNode d = JSON.createObjectNode();
        d.putObject("metadata").put("name", name);
        return d;
    }

    static ObjectNode claim(String name, String cls, String size, String volume) {
        ObjectNode c = JSON.createObjectNode();
        c.putObject("metadata").put("name", name).put("namespace", "files");
        ObjectNode spec = c.putObject("spec");
        spec.put("storageClassName", cls).put("volumeName", volume);
        spec.putArray("accessModes").add("ReadWriteOnce");
        spec.putObject("resources").putObject("requests").put("storage", size);
        ObjectNode status = c.putObject("status");
        status.put("phase", "Bound");
        status.putObject("capacity").put("storage", size);
        return c;
    }

    /** A PersistentVolume of {@code cls}; {@code node} null for none, {@code bound} for the claim it is bound to. */
    static ObjectNode volume(String name, String cls, String size, String node, String bound) {
        ObjectNode pv = JSON.createObjectNode();
        pv.putObject("metadata").put("name", name);
        ObjectNode spec = pv.putObject("spec");
        spec.put("storageClassName", cls);
        spec.putObject("capacity").put("storage", size);
        spec.putArray("accessModes").add("ReadWriteOnce");
        if (node != null) {
            ArrayNode terms = spec.putObject("nodeAffinity").putObject("required").putArray("nodeSelectorTerms");
            terms.addObject().putArray("matchExpressions").addObject().put("key", "kubernetes.io/hostname").put("operator", "In")
                    .putArray("values").add(node);
        }
        if (bound != null) {
            spec.putObject("claimRef").put("namespace", "files").put("name", bound);
        }
        pv.putObject("status").put("phase", bound == null ? "Available" : "Bound");
        return pv;
    }

    static ObjectNode statefulSet(String size, String serviceName) {
        ObjectNode sts = JSON.createObjectNode();
        sts.put("apiVersion", "apps/v1").put("kind", "StatefulSet");
        sts.putObject("metadata").put("name", "web").put("namespace", "files");
        ObjectNode spec = sts.putObject("spec");
        spec.put("replicas", 2).put("serviceName", serviceName);
        spec.putObject("template").putObject("spec").putArray("containers").addObject().put("name", "web").put("image", "nginx:1.27");
        ObjectNode vct = spec.putArray("volumeClaimTemplates").addObject();
        vct.putObject("metadata").put("name", "data");
        vct.putObject("spec").putObject("resources").putObject("requests").put("storage", size);
        return sts;
    }

    static Cluster localPath() {
        return new Cluster("local-path", "rancher.io/local-path", false);
    }

    static Cluster noProvisioner() {
        return new Cluster("local", "kubernetes.io/no-provisioner", false);
    }

    static Row copy(Cluster c, String... copied) {
        return new Row(c, COPY, "copy", null, List.of(copied), List.of(), List.of(), List.of());
    }

    static Row refused(Cluster c, CopyOptIn optIn, String verdict, String reason, List<String> detail, List<String> notInDetail) {
        return new Row(c, optIn, verdict, reason, List.of(), List.of(), detail, notInDetail);
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("opted in, a class that does not allow expansion: each claim to grow is copied",
                        copy(localPath(), "data-web-0", "data-web-1").saying(List.of("template \"data\" 1Gi -> 2Gi; 2 claims cannot grow in"
                                + " place: copy each to a bigger volume of the same name, class \"local-path\", one pod at a time (each down"
                                + " while its data is copied); the StatefulSet is orphan-deleted and re-applied around each pod's copy"),
                                List.of("left alone", POSSIBLE))),
                Arguments.of("opted in, a class that allows expansion but whose provisioner has no resizer: copied",
                        copy(new Cluster("local-path", "rancher.io/local-path", true), "data-web-0", "data-web-1")),
                Arguments.of("opted in, the template already declares 2Gi but the claims lag: a copy, which re-creates the set",
                        copy(localPath().with(c -> c.liveSize = "2Gi"), "data-web-0", "data-web-1")
                                .saying(List.of("2 claims cannot grow in place"), List.of("template \"data\""))),
                Arguments.of("opted in, a claim already at the target is left alone, the other copied",
                        copy(localPath().with(c -> c.claims.set(1, claim("data-web-1", "local-path", "2Gi", "pv-1"))), "data-web-0")
                                .saying(List.of("1 claim cannot grow in place", "; 1 claim already at or above the target, left alone;"),
                                        List.of())),
                Arguments.of("opted in, a class that expands: grown in place, the opt-in changes nothing",
                        new Row(new Cluster("fast", "ebs.csi.aws.com", true), COPY, "grow", null, List.of(),
                                List.of("data-web-0", "data-web-1"), List.of(), List.of("--copy"))),
                Arguments.of("opted in, mixed (one claim could grow in place): refused, saying the copy takes all or none",
                        refused(localPath().with(c -> {
                            c.classes.add(storageClass("fast", "ebs.csi.aws.com", true));
                            c.claims.set(1, claim("data-web-1", "fast", "1Gi", "pv-1"));
                        }), COPY, "refused", "not-expandable", List.of("--copy does not apply: claim \"data-web-1\" can grow in place"),
                                List.of(POSSIBLE))),
                Arguments.of("opted in, another finding than expansion (serviceName changes): the refusal stands, no copy offered",
                        refused(localPath().with(c -> c.declaredService = "www"), COPY, "refused", "other-immutable",
                                List.of("not-expandable"), List.of("--copy"))),
                Arguments.of("opted in, a ReadWriteMany claim: refused copy-read-write-many",
                        refused(localPath().with(c -> ((ObjectNode) c.claimAt(1).get("spec")).putArray("accessModes").add("ReadWriteMany")),
                                COPY, "refused", "copy-read-write-many",
                                List.of("claim \"data-web-1\" cannot grow in place and cannot be copied: it is ReadWriteMany"),
                                List.of("not-expandable"))),
                Arguments.of("opted in, a volumeMode Block claim: refused copy-block-volume",
                        refused(localPath().with(c -> ((ObjectNode) c.claimAt(0).get("spec")).put("volumeMode", "Block")),
                                COPY, "refused", "copy-block-volume", List.of("claim \"data-web-0\" cannot grow in place and cannot be copied: it has"
                                        + " volumeMode: Block"), List.of())),
                Arguments.of("opted in, --copy-class names a class that does not exist: blocked copy-no-volume",
                        refused(localPath(), new CopyOptIn(true, Optional.of("bigger"), CopyOptIn.DEFAULT_IMAGE), "blocked",
                                "copy-no-volume", List.of("the new volumes of claims \"data-web-0\", \"data-web-1\" would be of StorageClass"
                                        + " \"bigger\", which does not exist"), List.of())),
                Arguments.of("opted in, --copy-class names a class that provisions: copied into it",
                        copy(localPath().with(c -> c.classes.add(storageClass("bigger", "rancher.io/local-path", false))),
                                "data-web-0", "data-web-1").withOptIn(new CopyOptIn(true, Optional.of("bigger"), "busybox:1.36.1"))),
                Arguments.of("opted in, a no-provisioner class and no Available volume: blocked, naming class, size, mode and node",
                        refused(noProvisioner().with(c -> c.volumes = PersistentVolumes.of(List.of(
                                volume("pv-0", "local", "1Gi", "node-a", "data-web-0"), volume("pv-1", "local", "1Gi", "node-b", "data-web-1")))),
                                COPY, "blocked", "copy-no-volume", List.of("no Available PersistentVolume fits",
                                        "for claim \"data-web-0\": an Available PersistentVolume of class \"local\", at least 2Gi, ReadWriteOnce, with node affinity to node \"node-a\"",
                                        "for claim \"data-web-1\": an Available PersistentVolume of class \"local\", at least 2Gi, ReadWriteOnce, with node affinity to node \"node-b\""),
                                List.of())),
                Arguments.of("opted in, a no-provisioner class with an Available volume per claim on its node: copied",
                        copy(noProvisioner().with(c -> c.volumes = PersistentVolumes.of(List.of(
                                volume("pv-0", "local", "1Gi", "node-a", "data-web-0"), volume("pv-1", "local", "1Gi", "node-b", "data-web-1"),
                                volume("new-b", "local", "2Gi", "node-b", null), volume("new-a", "local", "3Gi", "node-a", null)))),
                                "data-web-0", "data-web-1")),
                Arguments.of("opted in, no-provisioner: a volume too small, one on another node, one bound: the claim is still short of one",
                        refused(noProvisioner().with(c -> c.volumes = PersistentVolumes.of(List.of(
                                volume("pv-0", "local", "1Gi", "node-a", "data-web-0"), volume("pv-1", "local", "1Gi", "node-b", "data-web-1"),
                                volume("small", "local", "1536Mi", "node-a", null), volume("elsewhere", "local", "4Gi", "node-c", null),
                                volume("taken", "local", "4Gi", "node-a", "other"), volume("new-b", "local", "2Gi", "node-b", null)))),
                                COPY, "blocked", "copy-no-volume", List.of("for claim \"data-web-0\": an Available PersistentVolume of class \"local\", at least 2Gi"),
                                List.of("for claim \"data-web-1\""))),
                Arguments.of("opted in, no-provisioner: one Available volume without node affinity fits only one of the two claims",
                        refused(noProvisioner().with(c -> c.volumes = PersistentVolumes.of(List.of(volume("any", "local", "2Gi", null, null)))),
                                COPY, "blocked", "copy-no-volume", List.of("for claim \"data-web-1\": an Available PersistentVolume of class \"local\", at least 2Gi, ReadWriteOnce"),
                                List.of("for claim \"data-web-0\""))),
                Arguments.of("opted in, no-provisioner: Available volumes reserved for another claim, of Block mode or ReadOnlyMany are no fit",
                        refused(noProvisioner().with(c -> {
                            ObjectNode reserved = volume("reserved", "local", "4Gi", null, null);
                            ((ObjectNode) reserved.get("spec")).putObject("claimRef").put("namespace", "other").put("name", "x");
                            ObjectNode block = volume("block", "local", "4Gi", null, null);
                            ((ObjectNode) block.get("spec")).put("volumeMode", "Block");
                            ObjectNode readOnly = volume("read-only", "local", "4Gi", null, null);
                            ((ObjectNode) readOnly.get("spec")).putArray("accessModes").add("ReadOnlyMany");
                            ObjectNode fits = volume("fits", "local", "4Gi", null, null);
                            ((ObjectNode) fits.get("spec")).put("volumeMode", "Filesystem");
                            c.volumes = PersistentVolumes.of(List.of(reserved, block, readOnly, fits));
                        }), COPY, "blocked", "copy-no-volume", List.of("for claim \"data-web-1\": an Available PersistentVolume of class \"local\", at least 2Gi"),
                                List.of("for claim \"data-web-0\""))),
                Arguments.of("opted in, no-provisioner: a volume of another class is no fit",
                        refused(noProvisioner().with(c -> c.volumes = PersistentVolumes.of(List.of(volume("other", "fast", "4Gi", null, null),
                                volume("ok", "local", "4Gi", null, null)))), COPY, "blocked", "copy-no-volume",
                                List.of("for claim \"data-web-1\""), List.of("for claim \"data-web-0\""))),
                Arguments.of("opted in, claims without a StorageClass and no --copy-class: blocked, naming --copy-class",
                        refused(localPath().with(c -> c.claims.forEach(cl -> ((ObjectNode) cl.get("spec")).remove("storageClassName"))),
                                COPY, "blocked", "copy-no-volume",
                                List.of("claims \"data-web-0\", \"data-web-1\" have no StorageClass for the new volumes to take; name one"
                                        + " with --copy-class"), List.of())),
                Arguments.of("opted in, claims without a StorageClass, --copy-class names one that provisions: copied",
                        copy(localPath().with(c -> c.claims.forEach(cl -> ((ObjectNode) cl.get("spec")).remove("storageClassName"))),
                                "data-web-0", "data-web-1").withOptIn(new CopyOptIn(true, Optional.of("local-path"), "busybox:1.36.1"))),
                Arguments.of("opted in, StorageClasses unreadable, claims without a class: copied into --copy-class unchecked",
                        copy(localPath().with(c -> {
                            c.classesKnown = false;
                            c.claims.forEach(cl -> ((ObjectNode) cl.get("spec")).remove("storageClassName"));
                        }), "data-web-0", "data-web-1").withOptIn(new CopyOptIn(true, Optional.of("nowhere"), "busybox:1.36.1"))),
                Arguments.of("opted in, StorageClasses unreadable, claims without a class and no --copy-class: blocked all the same",
                        refused(localPath().with(c -> {
                            c.classesKnown = false;
                            c.claims.forEach(cl -> ((ObjectNode) cl.get("spec")).remove("storageClassName"));
                        }), COPY, "blocked", "copy-no-volume", List.of("name one with --copy-class"), List.of())),
                Arguments.of("opted in, no-provisioner: volumes of mode Filesystem, said or left out, both fit",
                        copy(noProvisioner().with(c -> {
                            ObjectNode said = volume("said", "local", "2Gi", null, null);
                            ((ObjectNode) said.get("spec")).put("volumeMode", "Filesystem");
                            c.volumes = PersistentVolumes.of(List.of(said, volume("left-out", "local", "2Gi", null, null)));
                        }), "data-web-0", "data-web-1")),
                Arguments.of("opted in, no-provisioner and the PersistentVolumes forbidden: blocked, saying they could not be read and what to create",
                        refused(noProvisioner().with(c -> c.volumes = PersistentVolumes.unreadable("persistentvolumes is forbidden")),
                                COPY, "blocked", "copy-no-volume", List.of("the PersistentVolumes could not be read (persistentvolumes is forbidden)",
                                        "for claim \"data-web-0\": an Available PersistentVolume of class \"local\", at least 2Gi, ReadWriteOnce, on the old volume's node"),
                                List.of())),
                Arguments.of("without the opt-in, a class that does not expand: refused, and the detail says the copy is possible once",
                        refused(localPath(), CopyOptIn.NONE, "refused", "not-expandable", List.of("; " + POSSIBLE), List.of())),
                Arguments.of("without the opt-in, no resizer: refused no-resizer, saying the copy is possible",
                        refused(new Cluster("local-path", "rancher.io/local-path", true), CopyOptIn.NONE, "refused", "no-resizer",
                                List.of(POSSIBLE), List.of())),
                Arguments.of("without the opt-in, a ReadWriteMany claim: refused, no copy offered",
                        refused(localPath().with(c -> ((ObjectNode) c.claimAt(0).get("spec")).putArray("accessModes").add("ReadWriteMany")),
                                CopyOptIn.NONE, "refused", "not-expandable", List.of(), List.of("--copy"))),
                Arguments.of("without the opt-in, mixed: refused, no copy offered",
                        refused(localPath().with(c -> {
                            c.classes.add(storageClass("fast", "ebs.csi.aws.com", true));
                            c.claims.set(1, claim("data-web-1", "fast", "1Gi", "pv-1"));
                        }), CopyOptIn.NONE, "refused", "not-expandable", List.of(), List.of("--copy"))));
    }

    @org.junit.jupiter.api.Test
    void theOptInAndTheVolumesKeepTheirDefaults() {
        assertThat(new CopyOptIn(true, null, " ")).isEqualTo(new CopyOptIn(true, Optional.empty(), CopyOptIn.DEFAULT_IMAGE));
        assertThat(CopyOptIn.withDefaults().chosen()).isTrue();
        assertThat(CopyOptIn.NONE.chosen()).isFalse();
        assertThat(new CopyOptIn(true, Optional.empty(), "busybox:1.37.0").image()).isEqualTo("busybox:1.37.0");
        assertThat(new PersistentVolumes(false, List.of(), null).unreadable()).isEmpty();
        assertThat(PersistentVolumes.of(List.of()).listed()).isTrue();
        assertThat(PersistentVolumes.unreadable("no").listed()).isFalse();
        assertThat(PersistentVolumes.unreadable("no").unreadable()).contains("no");
        LiveState live = new LiveState(List.of(), List.of(), List.of(), true, List.of(), true, null);
        assertThat(live.volumes()).isEqualTo(PersistentVolumes.NOT_READ);
        PersistentVolumes listed = PersistentVolumes.of(List.of(volume("a", "local", "1Gi", null, null)));
        assertThat(live.withVolumes(listed).storage().volumes()).isEqualTo(listed);
        assertThat(new StorageFacts(List.of(), true, Resizers.unknown()).volumes()).isEqualTo(PersistentVolumes.NOT_READ);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(String name, Row row) {
        Cluster c = row.cluster();
        StorageFacts storage = new StorageFacts(c.classes, c.classesKnown, Resizers.of(c.drivers), c.volumes);
        Decision d = Decider.decideOne(statefulSet("2Gi", c.declaredService), statefulSet(c.liveSize, "web"), c.claims, storage,
                row.optIn());
        String context = name + "\n  decided: " + d.verdict().label() + " " + d.detail() + " claims=" + d.claims();
        assertThat(d.verdict().label()).as(context).isEqualTo(row.verdict());
        assertThat(d instanceof Refusal r ? r.reason().label() : null).as(context).isEqualTo(row.reason());
        assertThat(d.claimsToCopy().stream().map(ClaimState::name).toList()).as(context).containsExactlyElementsOf(row.copied());
        assertThat(d.claimsToGrow().stream().map(ClaimState::name).toList()).as(context).containsExactlyElementsOf(row.grown());
        assertThat(d.recreate()).as(context).isEqualTo(d.verdict() == Verdict.COPY || d.verdict() == Verdict.GROW);
        row.detail().forEach(s -> assertThat(d.detail()).as(context).contains(s));
        row.notInDetail().forEach(s -> assertThat(d.detail()).as(context).doesNotContain(s));
        assertThat(d.detail().split(java.util.regex.Pattern.quote(POSSIBLE), -1)).as(context + "\n  the copy is offered at most once")
                .hasSizeLessThanOrEqualTo(2);
        if (d.verdict() == Verdict.COPY) {
            assertThat(d.claimsToCopy()).as(context).allSatisfy(cs -> assertThat(cs.grow()).isTrue());
            String newClass = row.optIn().classFor(c.claims.get(0).path("spec").path("storageClassName").asText());
            assertThat(d.detail()).as(context).contains("cannot grow in place: copy each to a bigger volume of the same name, class \""
                    + newClass + "\"");
        }
    }
}
