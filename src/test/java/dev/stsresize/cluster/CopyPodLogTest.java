package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The copy pod's output is untrusted input: only a Succeeded pod, exit code 0, a whole log with both manifests
 * equal and the verified line makes a {@link CopyVerified}; each broken rule below leaves the copy unverified.
 */
class CopyPodLogTest {
    static final String DIGEST = "a".repeat(64);
    static final String LOG = """
            stsresize-copy: start src-files=3 src-bytes=1200
            stsresize-copy: progress files=2 bytes=800
            cp: can't preserve times of '/dst/x': Operation not permitted
            stsresize-copy: progress files=3 bytes=1200
            stsresize-copy: manifest src sha256=%s files=3 bytes=1200
            stsresize-copy: manifest dst sha256=%s files=3 bytes=1200
            stsresize-copy: filesystem ext4 size-kib=20511312 used-kib=24
            stsresize-copy: verified
            """.formatted(DIGEST, DIGEST);

    /** The plugin's copy pod of shop/data-db-1, as the kubelet leaves it after a copy that exited 0. */
    static ObjectNode pod() {
        return json("""
                {"metadata":{"name":"stsresize-copy-data-db-1","namespace":"shop","uid":"pod-uid",
                  "labels":{"app.kubernetes.io/managed-by":"kubectl-stsresize","stsresize.dev/copy-of":"data-db-1"}},
                 "spec":{"volumes":[{"name":"src","persistentVolumeClaim":{"claimName":"data-db-1","readOnly":true}},
                                    {"name":"dst","persistentVolumeClaim":{"claimName":"stsresize-data-db-1"}}]},
                 "status":{"phase":"Succeeded","containerStatuses":[{"name":"copy","state":{"terminated":{"exitCode":0}}}]}}""");
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) TreeMapper.MAPPER.readTree(text);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    static CopyCheck verify(ObjectNode pod, String log) {
        return CopyPodLog.verify("shop", "data-db-1", pod, new PodLog(log, true));
    }

    static CopyVerified verified() {
        return (CopyVerified) verify(pod(), LOG);
    }

    @Test
    void a_succeeded_pod_with_equal_manifests_and_the_verified_line_is_a_verified_copy() {
        CopyCheck check = verify(pod(), LOG);
        assertThat(check).isInstanceOf(CopyVerified.class);
        CopyVerified v = (CopyVerified) check;
        assertThat(v.claim()).isEqualTo("data-db-1");
        assertThat(v.destination()).as("the claim of the pod's dst volume").isEqualTo("stsresize-data-db-1");
        assertThat(v.podUid()).isEqualTo("pod-uid");
        assertThat(v.files()).isEqualTo(3);
        assertThat(v.bytes()).isEqualTo(1200);
        assertThat(v.digest()).isEqualTo(DIGEST);
        assertThat(v.fileSystem()).isEqualTo("ext4 size-kib=20511312 used-kib=24");
    }

    @Test
    void negative_controls_the_pod_itself() {
        ObjectNode failed = pod();
        ((ObjectNode) failed.get("status")).put("phase", "Failed");
        assertUnverified(verify(failed, LOG), "phase Failed");

        ObjectNode exit3 = pod();
        ((ObjectNode) exit3.at("/status/containerStatuses/0/state/terminated")).put("exitCode", 3);
        assertUnverified(verify(exit3, LOG), "exit code 3");

        ObjectNode running = pod();
        ((ObjectNode) running.at("/status/containerStatuses/0")).putObject("state").putObject("running");
        assertUnverified(verify(running, LOG), "no exit code");

        ObjectNode textExit = pod();
        ((ObjectNode) textExit.at("/status/containerStatuses/0/state/terminated")).put("exitCode", "0");
        assertUnverified(verify(textExit, LOG), "did not exit 0");

        ObjectNode foreign = pod();
        ((ObjectNode) foreign.at("/metadata/labels")).put("app.kubernetes.io/managed-by", "helm");
        assertUnverified(verify(foreign, LOG), "not this plugin's copy pod");

        ObjectNode otherClaim = pod();
        ((ObjectNode) otherClaim.at("/metadata/labels")).put("stsresize.dev/copy-of", "data-db-0");
        assertUnverified(verify(otherClaim, LOG), "not this plugin's copy pod of claim data-db-1");

        ObjectNode otherSource = pod();
        ((ObjectNode) otherSource.at("/spec/volumes/0/persistentVolumeClaim")).put("claimName", "data-db-0");
        assertUnverified(verify(otherSource, LOG), "its volume src is not claim data-db-1");

        ObjectNode noDestination = pod();
        ((com.fasterxml.jackson.databind.node.ArrayNode) noDestination.at("/spec/volumes")).remove(1);
        assertUnverified(verify(noDestination, LOG), "its volume dst is not a claim other than data-db-1");

        ObjectNode destinationNotAClaim = pod();
        ((ObjectNode) destinationNotAClaim.at("/spec/volumes/1")).remove("persistentVolumeClaim");
        ((ObjectNode) destinationNotAClaim.at("/spec/volumes/1")).putObject("emptyDir");
        assertUnverified(verify(destinationNotAClaim, LOG), "its volume dst is not a claim");

        ObjectNode ontoItself = pod();
        ((ObjectNode) ontoItself.at("/spec/volumes/1/persistentVolumeClaim")).put("claimName", "data-db-1");
        assertUnverified(verify(ontoItself, LOG), "its volume dst is not a claim other than data-db-1");

        ObjectNode otherNamespace = pod();
        ((ObjectNode) otherNamespace.get("metadata")).put("namespace", "other");
        assertUnverified(verify(otherNamespace, LOG), "not a pod of namespace shop");
    }

    @Test
    void negative_controls_the_log() {
        String other = "b".repeat(64);
        assertUnverified(verify(pod(), LOG.replace("dst sha256=" + DIGEST, "dst sha256=" + other)), "differ in sha256");
        assertUnverified(verify(pod(), LOG.replace("dst sha256=" + DIGEST + " files=3", "dst sha256=" + DIGEST + " files=2")),
                "differ in files");
        assertUnverified(verify(pod(), LOG.replace("files=3 bytes=1200\nstsresize-copy: filesystem", "files=3 bytes=1100\nstsresize-copy: filesystem")),
                "differ in bytes");
        assertUnverified(verify(pod(), LOG.replace("stsresize-copy: verified\n", "")), "lacks the verified line");
        assertUnverified(verify(pod(), LOG.replace("stsresize-copy: verified\n", "stsresize-copy: differs ./a 0600 != ./a 0644\n")),
                "differs from its source");
        assertUnverified(verify(pod(), LOG + "stsresize-copy: differs ./a\n"), "differs from its source");
        assertUnverified(verify(pod(), LOG.replace("stsresize-copy: verified\n", "stsresize-copy: error cp -a exited 1\n")),
                "the copy script failed (error cp -a exited 1)");
        assertUnverified(verify(pod(), LOG + "stsresize-copy: verified\n"), "out of order or repeated");
        assertUnverified(verify(pod(), LOG + "stsresize-copy: manifest dst sha256=" + DIGEST + " files=3 bytes=1200\n"), "out of order");
        assertUnverified(verify(pod(), LOG.replace("stsresize-copy: start src-files=3 src-bytes=1200\n", "")), "out of order");
        assertUnverified(verify(pod(), "stsresize-copy: verified\n" + LOG), "out of order");
        assertUnverified(verify(pod(), LOG.replace("stsresize-copy: manifest src", "stsresize-copy: manifest SRC")), "not one the copy script prints");
        assertUnverified(verify(pod(), LOG.replace("sha256=" + DIGEST + " files=3 bytes=1200\nstsresize-copy: manifest dst",
                "sha256=" + DIGEST.toUpperCase() + " files=3 bytes=1200\nstsresize-copy: manifest dst")), "not one the copy script prints");
        assertUnverified(verify(pod(), LOG.replace("files=3 bytes=1200", "files=3 bytes=99999999999999999999")), "not one the copy script prints");
        assertUnverified(verify(pod(), LOG.replace("files=3 bytes=1200", "files=-3 bytes=1200")), "not one the copy script prints");
        assertUnverified(verify(pod(), LOG.replace("\n", "\r\n")), "not one the copy script prints");
        assertUnverified(verify(pod(), LOG.replace("stsresize-copy: verified", "stsresize-copy: verified!")), "not one the copy script prints");
        assertUnverified(verify(pod(), ""), "does not end with a whole line");
        assertUnverified(verify(pod(), "\n"), "lacks the source manifest");
        assertUnverified(CopyPodLog.verify("shop", "data-db-1", pod(), new PodLog(LOG, false)), "cut short");
    }

    @Test
    void no_cut_of_a_verified_log_is_a_verified_copy() {
        // a log read while the pod still writes, or cut by the reader: every proper prefix is refused
        for (int end = 0; end < LOG.length(); end++) {
            assertThat(verify(pod(), LOG.substring(0, end))).as("the first %d characters", end).isInstanceOf(CopyCheck.Unverified.class);
        }
    }

    @Test
    void no_single_line_dropped_from_the_scripts_lines_but_a_progress_line_leaves_it_verified() {
        String[] lines = LOG.split("\n");
        for (int i = 0; i < lines.length; i++) {
            StringBuilder without = new StringBuilder();
            for (int j = 0; j < lines.length; j++) {
                if (j != i) {
                    without.append(lines[j]).append('\n');
                }
            }
            boolean optional = lines[i].contains(" progress ") || lines[i].startsWith("cp:") || lines[i].contains(" filesystem ");
            assertThat(verify(pod(), without.toString()) instanceof CopyVerified).as("without line %d: %s", i + 1, lines[i]).isEqualTo(optional);
        }
    }

    @Test
    void a_long_claim_names_pod_and_label_are_cut_to_63_characters_with_a_hash() {
        String claim = "data-" + "x".repeat(80) + "-0";
        assertThat(CopyPodLog.podName(claim)).hasSize(63).startsWith("stsresize-copy-data-xxx").isNotEqualTo(CopyPodLog.podName(claim + "1"));
        assertThat(CopyPodLog.copyOfLabel(claim)).hasSize(63);
        assertThat(CopyPodLog.podName("data-db-1")).isEqualTo("stsresize-copy-data-db-1");
    }

    static void assertUnverified(CopyCheck check, String reason) {
        assertThat(check).isInstanceOf(CopyCheck.Unverified.class);
        assertThat(((CopyCheck.Unverified) check).reason()).contains(reason);
    }
}
