package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * The in-cluster copy of a run's record, without a cluster: the Secret written for a record reads back
 * as that record only against the Lease's digest, and each way a stored Secret can fail to be the
 * record is refused saying which.
 */
class RecordSecretTest {
    static Record record(String name, String phase) {
        ObjectNode live = Objects.parse("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"shop\",\"uid\":\"u1\"},\"spec\":{\"replicas\":3}}");
        Map<String, String> targets = new LinkedHashMap<>();
        targets.put("data-" + name + "-1", "20Gi");
        targets.put("data-" + name + "-0", "20Gi");
        return RecordBuilder.record().server("https://k:6443").name(name).holder("alice@laptop 1").phase(phase)
                .startedAt("2026-12-06T00:00:00Z").live(live).reapply(live.deepCopy()).claimTargets(targets).build();
    }

    @Test
    void the_secret_of_a_record_is_named_labelled_typed_and_reads_back_against_its_digest() throws Exception {
        Record r = record("db", Phase.GROW.recorded());
        ObjectNode s = RecordSecret.object(r, null);
        assertThat(s.path("kind").asText()).isEqualTo("Secret");
        assertThat(s.path("type").asText()).isEqualTo(RecordSecret.TYPE);
        assertThat(s.path("metadata").path("name").asText()).isEqualTo("stsresize-db");
        assertThat(s.path("metadata").path("namespace").asText()).isEqualTo("shop");
        assertThat(s.path("metadata").has("resourceVersion")).as("a new Secret carries no precondition").isFalse();
        assertThat(s.path("metadata").path("labels").path("app.kubernetes.io/managed-by").asText()).isEqualTo("kubectl-stsresize");
        assertThat(s.path("metadata").path("labels").path("stsresize.dev/statefulset").asText()).isEqualTo("db");
        String digest = s.path("metadata").path("annotations").path(RecordSecret.DIGEST).asText();
        assertThat(digest).isEqualTo(RecordSecret.digest(RecordSecret.payload(r))).hasSize(64);

        byte[] unzipped = new GZIPInputStream(new ByteArrayInputStream(
                Base64.getDecoder().decode(s.path("data").path(RecordSecret.KEY).asText()))).readAllBytes();
        assertThat(new String(unzipped, StandardCharsets.UTF_8)).doesNotContain("\"phase\"").contains("\"holder\":\"alice@laptop 1\"");

        Record back = RecordSecret.read(s, digest);
        assertThat(back.withPhase(r.phase())).isEqualTo(r);
        assertThat(back.claimTargets().keySet()).as("in the order recorded").containsExactly("data-db-1", "data-db-0");
    }

    @Test
    void the_payload_and_digest_leave_the_phase_out_so_the_lease_alone_moves_it() {
        Record growing = record("db", Phase.GROW.recorded());
        assertThat(RecordSecret.payload(growing)).isEqualTo(RecordSecret.payload(growing.withPhase(Phase.VERIFY.recorded())));
        assertThat(RecordSecret.digest(RecordSecret.payload(growing)))
                .isNotEqualTo(RecordSecret.digest(RecordSecret.payload(growing.withHolder("bob"))));
        // sha256 of the empty input, as sha256sum prints it
        assertThat(RecordSecret.digest(new byte[0])).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void an_update_keeps_the_current_resource_version_and_a_long_name_gets_no_label() {
        ObjectNode current = Objects.parse("{\"metadata\":{\"resourceVersion\":\"42\"}}");
        assertThat(RecordSecret.object(record("db", "locked"), current).path("metadata").path("resourceVersion").asText()).isEqualTo("42");
        String n63 = "a".repeat(63);
        String n64 = "a".repeat(64);
        assertThat(RecordSecret.object(record(n63, "locked"), null).path("metadata").path("labels").path("stsresize.dev/statefulset").asText())
                .isEqualTo(n63);
        assertThat(RecordSecret.object(record(n64, "locked"), null).path("metadata").path("labels").has("stsresize.dev/statefulset"))
                .as("a label value holds at most 63 characters").isFalse();
    }

    @Test
    void a_secret_that_is_not_the_record_is_refused_saying_why() {
        Record r = record("db", "locked");
        ObjectNode good = RecordSecret.object(r, null);
        String digest = good.path("metadata").path("annotations").path(RecordSecret.DIGEST).asText();

        ObjectNode otherType = good.deepCopy().put("type", "Opaque");
        assertThatThrownBy(() -> RecordSecret.read(otherType, digest)).isInstanceOf(RecordSecret.Unreadable.class)
                .hasMessage("it is of type \"Opaque\", not stsresize.dev/record");

        ObjectNode noKey = good.deepCopy();
        noKey.putObject("data");
        assertThatThrownBy(() -> RecordSecret.read(noKey, digest)).hasMessage("it has no data key record.json.gz");

        ObjectNode notGzip = good.deepCopy();
        ((ObjectNode) notGzip.get("data")).put(RecordSecret.KEY, Base64.getEncoder().encodeToString("plain".getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> RecordSecret.read(notGzip, digest)).hasMessageStartingWith("its data is not gzip in base64 (");

        assertThatThrownBy(() -> RecordSecret.read(good, "0".repeat(64)))
                .hasMessage("its sha256 " + digest + " is not the one its Lease holds (" + "0".repeat(64) + ")");
        assertThatThrownBy(() -> RecordSecret.read(good, "")).hasMessage("its sha256 " + digest + " is not the one its Lease holds (none)");

        byte[] notJson = "{not json".getBytes(StandardCharsets.UTF_8);
        ObjectNode garbage = good.deepCopy();
        ((ObjectNode) garbage.get("data")).put(RecordSecret.KEY, Base64.getEncoder().encodeToString(RecordSecret.gzip(notJson)));
        assertThatThrownBy(() -> RecordSecret.read(garbage, RecordSecret.digest(notJson))).hasMessageStartingWith("its record is not JSON (");
    }

    @Test
    void a_stored_record_unzips_to_at_most_32_mib_and_one_byte_more_is_a_gzip_bomb() {
        int max = 32 * 1024 * 1024;
        for (int size : new int[] {max, max + 1}) {
            byte[] payload = new byte[size];
            java.util.Arrays.fill(payload, (byte) ' ');
            byte[] json = "{\"namespace\":\"shop\",\"name\":\"db\"}".getBytes(StandardCharsets.UTF_8);
            System.arraycopy(json, 0, payload, 0, json.length);
            ObjectNode s = RecordSecret.object(record("db", "locked"), null);
            ((ObjectNode) s.get("data")).put(RecordSecret.KEY, Base64.getEncoder().encodeToString(RecordSecret.gzip(payload)));
            if (size == max) {
                assertThat(RecordSecret.read(s, RecordSecret.digest(payload)).name()).isEqualTo("db");
            } else {
                assertThatThrownBy(() -> RecordSecret.read(s, RecordSecret.digest(payload)))
                        .hasMessage("its data unzips to more than 33554432 bytes");
            }
        }
    }

    /** The record with {@code chars} characters of incompressible text in an annotation of its live object. */
    private static Record padded(String noise, int chars) {
        Record small = record("db", "locked");
        ObjectNode live = small.live().deepCopy();
        ((ObjectNode) live.get("metadata")).putObject("annotations").put("big", noise.substring(0, chars));
        return RecordBuilder.record().server(small.server()).holder("h").phase("locked").startedAt("").live(live)
                .reapply(small.reapply()).build();
    }

    private static int zipped(Record r) {
        return RecordSecret.gzip(RecordSecret.payload(r)).length;
    }

    @Test
    void a_record_of_exactly_the_secret_size_gzipped_fits_as_kube_apiserver_accepts_it() {
        java.util.Random random = new java.util.Random(7);
        StringBuilder b = new StringBuilder();
        while (b.length() < 2_000_000) {
            b.append(Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
        }
        String noise = b.toString();
        int lo = 0;
        int hi = noise.length();
        while (lo < hi) { // the fewest characters that reach 1 MiB gzipped (one more character adds at most a byte)
            int mid = (lo + hi) >>> 1;
            if (zipped(padded(noise, mid)) < RecordSecret.MAX_SECRET_SIZE) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Record exact = padded(noise, lo);
        assertThat(zipped(exact)).isEqualTo(RecordSecret.MAX_SECRET_SIZE);
        assertThat(RecordSecret.whyTooLarge(exact)).isNull();
        int more = lo;
        while (zipped(padded(noise, more)) == RecordSecret.MAX_SECRET_SIZE) {
            more++;
        }
        assertThat(RecordSecret.whyTooLarge(padded(noise, more))).contains("gzipped) does not fit");
    }

    @Test
    void a_record_fits_up_to_the_secret_size_and_past_it_the_refusal_names_the_object_and_the_fix() {
        Record small = record("db", "locked");
        assertThat(RecordSecret.whyTooLarge(small)).isNull();
        // random base-36 text gzips to about 5 bits a character: 2 million are past 1 MiB gzipped
        java.util.Random random = new java.util.Random(1);
        StringBuilder big = new StringBuilder();
        while (big.length() < 2_000_000) {
            big.append(Long.toString(random.nextLong(), 36));
        }
        ObjectNode live = small.live().deepCopy();
        ((ObjectNode) live.get("metadata")).putObject("annotations").put("big", big.toString());
        Record large = RecordBuilder.record().server(small.server()).holder("h").phase("locked").startedAt("").live(live)
                .reapply(small.reapply()).build();
        assertThat(RecordSecret.whyTooLarge(large))
                .startsWith("StatefulSet shop/db cannot be resized by this plugin")
                .contains("does not fit in Secret shop/stsresize-db, which holds at most 1048576 bytes")
                .endsWith("then run again");
    }
}
