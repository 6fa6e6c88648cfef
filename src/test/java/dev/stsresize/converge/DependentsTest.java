package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pods and claims a StatefulSet has before its orphan delete, and what of them is lost after. */
class DependentsTest {
    private final MemoryCluster cluster = new MemoryCluster();

    static ObjectNode sts(String uid) {
        return MemoryCluster.json("{'kind':'StatefulSet','metadata':{'name':'db','namespace':'shop','uid':'" + uid + "'},"
                + "'spec':{'selector':{'matchLabels':{'app':'db'}}}}");
    }

    static String pod(String name, String uid, String app, String controller) {
        return "{'kind':'Pod','metadata':{'name':'" + name + "','namespace':'shop','uid':'" + uid + "','labels':{'app':'" + app + "'}"
                + (controller == null ? "" : ",'ownerReferences':[{'uid':'" + controller + "','controller':true}]") + "}}";
    }

    static String claim(String name, String uid) {
        return "{'kind':'PersistentVolumeClaim','metadata':{'name':'" + name + "','namespace':'shop','uid':'" + uid + "'}}";
    }

    @Test
    void the_pods_it_controls_or_nobody_controls_and_the_named_claims() {
        cluster.put(pod("db-0", "p0", "db", "sts-1"));
        cluster.put(pod("db-1", "p1", "db", null));
        cluster.put(pod("db-2", "p2", "db", "someone-else"));
        cluster.put(pod("web-0", "w0", "web", "sts-1"));
        cluster.put(claim("data-db-0", "c0"));
        cluster.put(claim("data-db-1", "c1"));
        cluster.put(claim("logs-db-0", "l0"));

        Dependents d = Dependents.read(cluster, sts("sts-1"), "sts-1", List.of("data-db-0", "data-db-1"));

        assertThat(d.pods()).isEqualTo(Map.of("db-0", "p0", "db-1", "p1"));
        assertThat(d.claims()).isEqualTo(Map.of("data-db-0", "c0", "data-db-1", "c1"));
    }

    @Test
    void no_claim_named_means_no_claim_listed() {
        cluster.put(claim("data-db-0", "c0"));
        Dependents d = Dependents.read(cluster, sts("sts-1"), "sts-1", List.of());
        assertThat(d.claims()).isEmpty();
        assertThat(cluster.reads()).noneMatch(r -> r.startsWith("listClaims"));
    }

    @Test
    void what_is_lost_names_each_pod_and_claim_gone_or_replaced() {
        Dependents before = new Dependents(Map.of("db-0", "p0", "db-1", "p1"), Map.of("data-db-0", "c0", "data-db-1", "c1"));
        assertThat(before.lostSince(before)).isEmpty();
        assertThat(new Dependents(Map.of("db-0", "p0", "db-1", "p1", "db-2", "p2"), Map.of("data-db-0", "c0", "data-db-1", "c1"))
                .lostSince(before)).as("more than before is nothing lost").isEmpty();

        Dependents after = new Dependents(Map.of("db-0", "p0-new"), Map.of("data-db-0", "c0", "data-db-1", "c1-new"));
        String lost = after.lostSince(before);
        assertThat(lost.split("; ")).containsExactlyInAnyOrder("pod db-0 has a new UID p0-new (was p0)", "pod db-1 is gone",
                "claim data-db-1 has a new UID c1-new (was c1)");
        assertThat(lost).as("pods first").startsWith("pod ");

        Dependents onlyClaims = new Dependents(Map.of("db-0", "p0", "db-1", "p1"), Map.of("data-db-1", "c1"));
        assertThat(onlyClaims.lostSince(before)).isEqualTo("claim data-db-0 is GONE");
    }
}
