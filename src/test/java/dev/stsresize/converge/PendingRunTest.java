package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the operator is told about a stopped run: whether it may be used, whether it had passed the
 * delete gate, who recorded it, the commands that inspect and remove it, and what resuming it writes.
 */
class PendingRunTest {
    private static Record record(String phase, String startedAt) {
        ObjectNode live = Objects.parse("{\"metadata\":{\"name\":\"db\",\"namespace\":\"shop\",\"uid\":\"u1\",\"resourceVersion\":\"5\"},"
                + "\"spec\":{\"replicas\":3,\"serviceName\":\"db\"},\"status\":{\"replicas\":3}}");
        // server-kept metadata and status the re-apply would carry are not what it changes: never shown
        ObjectNode reapply = Objects.parse("{\"metadata\":{\"name\":\"db\",\"namespace\":\"shop\",\"resourceVersion\":\"9\","
                + "\"managedFields\":[{\"manager\":\"x\"}]},\"spec\":{\"replicas\":3,\"serviceName\":\"db2\"},\"status\":{\"replicas\":0}}");
        Map<String, String> targets = new LinkedHashMap<>();
        targets.put("data-db-0", "20Gi");
        targets.put("data-db-1", "20Gi");
        return RecordBuilder.record().server("").holder("alice@laptop 1").phase(phase).startedAt(startedAt).fieldManager("helm")
                .live(live).reapply(reapply).claimTargets(targets).build();
    }

    @Test
    void only_a_read_record_without_a_problem_is_trusted() {
        assertThat(new PendingRun("shop", "db", record("growing", ""), true, "x", "").trusted()).isTrue();
        assertThat(new PendingRun("shop", "db", record("growing", ""), true, "x", "forged").trusted()).isFalse();
        assertThat(new PendingRun("shop", "db", null, true, "x", "").trusted()).isFalse();
        assertThat(new PendingRun("shop", "db", record("growing", ""), true, "x", "").withProblem("p").problem()).isEqualTo("p");
    }

    @Test
    void the_delete_gate_is_passed_from_phase_deleting_on() {
        for (String p : new String[] {"locked", "growing", "", "unknown"}) {
            assertThat(new PendingRun("shop", "db", record(p, ""), true, "x", "").pastTheDeleteGate()).as(p).isFalse();
        }
        for (String p : new String[] {"deleting", "reapplying", "verifying"}) {
            assertThat(new PendingRun("shop", "db", record(p, ""), true, "x", "").pastTheDeleteGate()).as(p).isTrue();
        }
        assertThat(new PendingRun("shop", "db", null, true, "x", "unreadable").pastTheDeleteGate()).isFalse();
    }

    @Test
    void who_recorded_it_is_what_the_record_says() {
        assertThat(new PendingRun("shop", "db", record("growing", "2026-12-06T01:02:03Z"), true, "x", "").recordedBy())
                .isEqualTo("alice@laptop 1 at 2026-12-06T01:02:03Z");
        assertThat(new PendingRun("shop", "db", record("growing", ""), true, "x", "").recordedBy()).isEqualTo("alice@laptop 1 at an unknown time");
        assertThat(new PendingRun("shop", "db", null, true, "x", "p").recordedBy()).isEqualTo("unknown");
    }

    @Test
    void a_local_record_left_alone_names_its_file_to_inspect_and_remove() {
        PendingRun local = new PendingRun("shop", "db", record("growing", ""), true, PendingRun.LOCAL_PREFIX + "/home/a/shop_db.json", "forged");
        assertThat(local.leftAlone()).isEqualTo("the record of a stopped run of StatefulSet shop/db in the local journal /home/a/shop_db.json"
                + " is not used: forged. It was left alone and nothing was written. Inspect it with `cat /home/a/shop_db.json`;"
                + " once you know that run is over, remove it with `rm /home/a/shop_db.json`, then run again");
    }

    @Test
    void a_record_in_the_cluster_left_alone_names_its_lease_and_secret() {
        PendingRun stored = new PendingRun("shop", "db", null, false, "Lease shop/stsresize-db and Secret shop/stsresize-db", "bad digest");
        assertThat(stored.inspect()).containsExactly("`kubectl get lease stsresize-db -n shop -o yaml`",
                "`kubectl get secret stsresize-db -n shop -o jsonpath='{.data.record\\.json\\.gz}' | base64 -d | gunzip`");
        assertThat(stored.remove()).containsExactly("`kubectl delete secret stsresize-db -n shop`", "`kubectl delete lease stsresize-db -n shop`");
        assertThat(stored.leftAlone()).contains(" is not used: bad digest. ")
                .contains("Inspect it with `kubectl get lease stsresize-db -n shop -o yaml` and `kubectl get secret");
    }

    @Test
    void describe_shows_the_reapply_as_what_it_sets_and_the_claims_it_grows() {
        String d = new PendingRun("shop", "db", record("deleting", "t0"), false, "Lease shop/stsresize-db", "").describe();
        assertThat(d).isEqualTo("StatefulSet shop/db: a run recorded by alice@laptop 1 at t0, stopped at phase deleting, found in Lease shop/stsresize-db.\n"
                + "  Resuming re-applies the recorded object (field manager helm); what it sets differently from the live object it recorded"
                + " (a field it leaves out takes its default):\n"
                + "    /spec/serviceName: \"db\" → \"db2\"\n"
                + "  grows claim data-db-0 to 20Gi\n"
                + "  grows claim data-db-1 to 20Gi\n");
    }

    @Test
    void describe_says_so_when_the_reapply_sets_nothing_new_and_when_the_phase_is_unknown() {
        Record r = record("", "t0");
        Record same = r.withReapply(r.live().deepCopy(), Map.of());
        String d = new PendingRun("shop", "db", same, true, "here", "").describe();
        assertThat(d).contains("stopped at phase unknown,").contains("    (no difference)\n").doesNotContain("grows claim");
        Record none = r.withReapply(null, Map.of());
        assertThat(new PendingRun("shop", "db", none, true, "here", "").describe())
                .isEqualTo("StatefulSet shop/db: a run recorded by alice@laptop 1 at t0, stopped at phase unknown, found in here.\n");
    }
}
