package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A claim delete is allowed only for its verified copy and its PV re-read, by the check itself, as Retain and bound
 * to the claim's UID; each rule broken below refuses it.
 */
class ClaimDeleteAllowedTest {
    static ObjectNode claim() {
        return CopyPodLogTest.json("""
                {"metadata":{"name":"data-db-1","namespace":"shop","uid":"claim-uid"},"spec":{"volumeName":"pv-1"}}""");
    }

    static ObjectNode volume() {
        return CopyPodLogTest.json("""
                {"metadata":{"name":"pv-1","uid":"pv-uid","resourceVersion":"7"},
                 "spec":{"persistentVolumeReclaimPolicy":"Retain",
                         "claimRef":{"kind":"PersistentVolumeClaim","namespace":"shop","name":"data-db-1","uid":"claim-uid"}}}""");
    }

    /** The copy's destination, the run's temporary claim (the pod's dst volume), bound to pv-2. */
    static ObjectNode destinationClaim() {
        return CopyPodLogTest.json("""
                {"metadata":{"name":"stsresize-data-db-1","namespace":"shop","uid":"tmp-uid"},"spec":{"volumeName":"pv-2"}}""");
    }

    /** pv-2, set to Retain, bound to the temporary claim. */
    static ObjectNode destinationVolume() {
        return CopyPodLogTest.json("""
                {"metadata":{"name":"pv-2","uid":"pv2-uid","resourceVersion":"9"},
                 "spec":{"persistentVolumeReclaimPolicy":"Retain",
                         "claimRef":{"kind":"PersistentVolumeClaim","namespace":"shop","name":"stsresize-data-db-1","uid":"tmp-uid"}}}""");
    }

    /** A port whose only answer is the PV given (empty when null); every getPersistentVolume is recorded. */
    static Cluster answering(ObjectNode pv, List<String> reads) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class}, (p, m, args) -> {
            if (m.getName().equals("getPersistentVolume")) {
                reads.add((String) args[0]);
                return Optional.ofNullable(pv);
            }
            throw new AssertionError("the check reads only the PV, not " + m.getName());
        });
    }

    /** A token made the only way there is, for tests of the port that need one. */
    static ClaimDeleteAllowed allowed() {
        return (ClaimDeleteAllowed) ClaimDeleteAllowed.check(answering(volume(), new ArrayList<>()), CopyPodLogTest.verified(), claim());
    }

    /** The same in another namespace (the port's tests use "x"). */
    static ClaimDeleteAllowed allowedIn(String namespace) {
        ObjectNode pod = CopyPodLogTest.pod();
        ((ObjectNode) pod.get("metadata")).put("namespace", namespace);
        CopyVerified copy = (CopyVerified) CopyPodLog.verify(namespace, "data-db-1", pod, new PodLog(CopyPodLogTest.LOG, true));
        ObjectNode claim = claim();
        ((ObjectNode) claim.get("metadata")).put("namespace", namespace);
        ObjectNode pv = volume();
        ((ObjectNode) pv.at("/spec/claimRef")).put("namespace", namespace);
        return (ClaimDeleteAllowed) ClaimDeleteAllowed.check(answering(pv, new ArrayList<>()), copy, claim);
    }

    /** A token for the copy's destination in {@code namespace}, for the port's tests. */
    static ClaimDeleteAllowed destinationAllowedIn(String namespace) {
        ObjectNode pod = CopyPodLogTest.pod();
        ((ObjectNode) pod.get("metadata")).put("namespace", namespace);
        CopyVerified copy = (CopyVerified) CopyPodLog.verify(namespace, "data-db-1", pod, new PodLog(CopyPodLogTest.LOG, true));
        ObjectNode claim = destinationClaim();
        ((ObjectNode) claim.get("metadata")).put("namespace", namespace);
        ObjectNode pv = destinationVolume();
        ((ObjectNode) pv.at("/spec/claimRef")).put("namespace", namespace);
        return (ClaimDeleteAllowed) ClaimDeleteAllowed.check(answering(pv, new ArrayList<>()), copy, claim);
    }

    static ClaimDeleteCheck checkDestination(Consumer<ObjectNode> changePv) {
        ObjectNode pv = destinationVolume();
        changePv.accept(pv);
        return ClaimDeleteAllowed.check(answering(pv, new ArrayList<>()), CopyPodLogTest.verified(), destinationClaim());
    }

    static ClaimDeleteCheck check(Consumer<ObjectNode> changePv) {
        ObjectNode pv = volume();
        changePv.accept(pv);
        return ClaimDeleteAllowed.check(answering(pv, new ArrayList<>()), CopyPodLogTest.verified(), claim());
    }

    @Test
    void a_verified_copy_and_a_retain_pv_bound_to_the_claim_allow_its_delete_by_uid_after_re_reading_the_pv() {
        List<String> reads = new ArrayList<>();
        ClaimDeleteCheck check = ClaimDeleteAllowed.check(answering(volume(), reads), CopyPodLogTest.verified(), claim());
        assertThat(check).isInstanceOf(ClaimDeleteAllowed.class);
        ClaimDeleteAllowed allowed = (ClaimDeleteAllowed) check;
        assertThat(allowed.uid()).isEqualTo("claim-uid");
        assertThat(allowed.volume()).isEqualTo("pv-1");
        assertThat(reads).as("the PV is read by the check itself").containsExactly("pv-1");
    }

    @Test
    void negative_controls_each_refuses_the_delete() {
        assertRefused(check(pv -> ((ObjectNode) pv.get("spec")).put("persistentVolumeReclaimPolicy", "Delete")), "reclaim policy Delete, not Retain");
        assertRefused(check(pv -> ((ObjectNode) pv.get("spec")).remove("persistentVolumeReclaimPolicy")), "reclaim policy (none)");
        assertRefused(check(pv -> ((ObjectNode) pv.at("/spec/claimRef")).put("uid", "other-uid")), "is not bound to it");
        assertRefused(check(pv -> ((ObjectNode) pv.get("spec")).remove("claimRef")), "is not bound to it");
        assertRefused(check(pv -> ((ObjectNode) pv.get("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z")), "is being deleted");
        assertRefused(ClaimDeleteAllowed.check(answering(null, new ArrayList<>()), CopyPodLogTest.verified(), claim()), "is not found");

        ObjectNode otherClaim = claim();
        ((ObjectNode) otherClaim.get("metadata")).put("name", "data-db-0");
        assertRefused(ClaimDeleteAllowed.check(answering(volume(), new ArrayList<>()), CopyPodLogTest.verified(), otherClaim),
                "the copy verified is of shop/data-db-1");
        ObjectNode unbound = claim();
        ((ObjectNode) unbound.get("spec")).remove("volumeName");
        assertRefused(ClaimDeleteAllowed.check(answering(volume(), new ArrayList<>()), CopyPodLogTest.verified(), unbound),
                "bound to no PersistentVolume");
        assertThatThrownBy(() -> ClaimDeleteAllowed.check(answering(volume(), new ArrayList<>()), null, claim()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("copy was verified");
    }

    @Test
    void the_copys_destination_claim_is_let_go_by_the_same_rules_and_no_third_claim_is() {
        List<String> reads = new ArrayList<>();
        ClaimDeleteCheck check = ClaimDeleteAllowed.check(answering(destinationVolume(), reads), CopyPodLogTest.verified(), destinationClaim());
        assertThat(check).as("the temporary claim, after its copy is verified").isInstanceOf(ClaimDeleteAllowed.class);
        ClaimDeleteAllowed allowed = (ClaimDeleteAllowed) check;
        assertThat(allowed.claim()).isEqualTo("stsresize-data-db-1");
        assertThat(allowed.uid()).isEqualTo("tmp-uid");
        assertThat(allowed.volume()).isEqualTo("pv-2");
        assertThat(allowed.destination()).isTrue();
        assertThat(allowed()).extracting(ClaimDeleteAllowed::destination).isEqualTo(false);
        assertThat(reads).as("its PV is re-read by the check").containsExactly("pv-2");

        assertRefused(checkDestination(pv -> ((ObjectNode) pv.get("spec")).put("persistentVolumeReclaimPolicy", "Delete")),
                "reclaim policy Delete, not Retain");
        assertRefused(checkDestination(pv -> ((ObjectNode) pv.at("/spec/claimRef")).put("uid", "other-uid")), "is not bound to it");
        assertRefused(checkDestination(pv -> ((ObjectNode) pv.get("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z")),
                "is being deleted");

        // a third claim: neither the copy's source nor its destination, even with a Retain PV bound to it
        ObjectNode third = destinationClaim();
        ((ObjectNode) third.get("metadata")).put("name", "data-db-2");
        ObjectNode thirdPv = destinationVolume();
        ((ObjectNode) thirdPv.at("/spec/claimRef")).put("name", "data-db-2");
        assertRefused(ClaimDeleteAllowed.check(answering(thirdPv, new ArrayList<>()), CopyPodLogTest.verified(), third),
                "neither of them this claim");
        ObjectNode elsewhere = destinationClaim();
        ((ObjectNode) elsewhere.get("metadata")).put("namespace", "other");
        ObjectNode elsewherePv = destinationVolume();
        ((ObjectNode) elsewherePv.at("/spec/claimRef")).put("namespace", "other");
        assertRefused(ClaimDeleteAllowed.check(answering(elsewherePv, new ArrayList<>()), CopyPodLogTest.verified(), elsewhere),
                "the copy verified is of shop/data-db-1");
    }

    @Test
    void no_other_way_makes_a_token_or_a_verified_copy() {
        for (Class<?> type : List.of(ClaimDeleteAllowed.class, CopyVerified.class)) {
            assertThat(type.getConstructors()).as(type + ": no public constructor").isEmpty();
            assertThat(java.lang.reflect.Modifier.isFinal(type.getModifiers())).as(type + " is final").isTrue();
        }
        assertThat(ClaimDeleteAllowed.class.getDeclaredConstructors()).allMatch(c -> java.lang.reflect.Modifier.isPrivate(c.getModifiers()));
    }

    static void assertRefused(ClaimDeleteCheck check, String reason) {
        assertThat(check).isInstanceOf(ClaimDeleteCheck.Refused.class);
        assertThat(((ClaimDeleteCheck.Refused) check).reason()).contains(reason);
    }
}
