package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The copy pod's outcome read as a proof, per the copy pod's contract (what the plugin's copy script prints): the pod
 * is the plugin's copy pod of that claim (its volume {@code src} that claim, its volume {@code dst} another claim: the
 * copy's destination), it ended {@code Succeeded} with exit code 0, and its log holds, in
 * order, one {@code start} line, any {@code progress} lines, the {@code manifest src} and {@code manifest dst}
 * lines, at most one {@code filesystem} line and the {@code verified} line, last; both manifests have the same
 * digest, file count and byte count. The log is untrusted input: any line of the script's prefix that is not one
 * of these forms, a line out of order or repeated, a {@code differs} or {@code error} line, a log cut short or not ended by a
 * newline, each leaves the copy {@link CopyCheck.Unverified}. Lines without the prefix (the tools' stderr) are not
 * read.
 */
public final class CopyPodLog {
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY = "kubectl-stsresize";
    public static final String COPY_OF_LABEL = "stsresize.dev/copy-of";
    public static final String NAME_PREFIX = "stsresize-copy-";
    public static final String CONTAINER = "copy";
    static final String LINE_PREFIX = "stsresize-copy: ";
    /** A name and a label value are at most 63 characters (a label value: validation.IsValidLabelValue). */
    static final int MAX_NAME = 63;

    private static final String COUNT = "(0|[1-9][0-9]{0,17})";
    private static final Pattern START = Pattern.compile("start src-files=" + COUNT + " src-bytes=" + COUNT);
    private static final Pattern PROGRESS = Pattern.compile("progress files=" + COUNT + " bytes=" + COUNT);
    private static final Pattern MANIFEST = Pattern.compile("manifest (src|dst) sha256=([0-9a-f]{64}) files=" + COUNT + " bytes=" + COUNT);
    private static final Pattern FILE_SYSTEM = Pattern.compile("filesystem ([A-Za-z0-9_.-]{1,32}) size-kib=" + COUNT + " used-kib=" + COUNT);

    private CopyPodLog() {}

    /** The copy pod's name for a claim: {@code stsresize-copy-<claim>}, cut to 63 characters with a hash suffix when longer. */
    public static String podName(String claim) {
        return cut(NAME_PREFIX + claim);
    }

    /** The {@code stsresize.dev/copy-of} label's value for a claim: the claim's name, cut like {@link #podName} when longer than a label holds. */
    public static String copyOfLabel(String claim) {
        return cut(claim);
    }

    /** Whether {@code pod} carries the copy pod's labels (managed by this plugin, a copy of some claim). */
    public static boolean hasCopyPodLabels(JsonNode pod) {
        JsonNode labels = pod.path("metadata").path("labels");
        return MANAGED_BY.equals(labels.path(MANAGED_BY_LABEL).asText(null)) && !labels.path(COPY_OF_LABEL).asText("").isEmpty();
    }

    /**
     * What the pod and its log prove of the copy of {@code namespace/claim}: {@link CopyVerified} only when every
     * check of this class holds, else the first that fails.
     */
    public static CopyCheck verify(String namespace, String claim, ObjectNode pod, PodLog log) {
        String refused = refusePod(namespace, claim, pod);
        if (refused == null) {
            refused = refuseLog(log);
        }
        if (refused != null) {
            return new CopyCheck.Unverified("copy pod " + namespace + "/" + pod.path("metadata").path("name").asText("?") + ": " + refused);
        }
        Reading reading = new Reading();
        String malformed = reading.read(log.text());
        if (malformed != null) {
            return new CopyCheck.Unverified("copy pod " + namespace + "/" + pod.path("metadata").path("name").asText() + ": " + malformed);
        }
        String differs = reading.differs();
        if (differs != null) {
            return new CopyCheck.Unverified("copy pod " + namespace + "/" + pod.path("metadata").path("name").asText() + ": " + differs);
        }
        return new CopyVerified(namespace, claim, volumeClaim(pod, "dst"), pod.path("metadata").path("name").asText(),
                pod.path("metadata").path("uid").asText(), reading.src.group(2), Long.parseLong(reading.src.group(3)), Long.parseLong(reading.src.group(4)), reading.fileSystem);
    }

    private static String refusePod(String namespace, String claim, JsonNode pod) {
        JsonNode meta = pod.path("metadata");
        if (!namespace.equals(meta.path("namespace").asText()) || meta.path("uid").asText("").isEmpty()) {
            return "not a pod of namespace " + namespace + " with a UID";
        }
        if (!hasCopyPodLabels(pod) || !copyOfLabel(claim).equals(meta.path("labels").path(COPY_OF_LABEL).asText())) {
            return "not this plugin's copy pod of claim " + claim + " (labels " + MANAGED_BY_LABEL + ", " + COPY_OF_LABEL + ")";
        }
        if (!claim.equals(volumeClaim(pod, "src"))) {
            return "its volume src is not claim " + claim;
        }
        String destination = volumeClaim(pod, "dst");
        if (destination == null || destination.isEmpty() || destination.equals(claim)) {
            return "its volume dst is not a claim other than " + claim + " (the copy's destination): the pod proves no copy";
        }
        if (!"Succeeded".equals(pod.path("status").path("phase").asText())) {
            return "phase " + pod.path("status").path("phase").asText("(none)") + ", not Succeeded";
        }
        JsonNode exit = copyContainerExitCode(pod);
        if (exit == null || !exit.isIntegralNumber() || exit.asLong() != 0) {
            return "container " + CONTAINER + " did not exit 0 (" + (exit == null ? "no exit code" : "exit code " + exit) + ")";
        }
        return null;
    }

    /** The claim of the pod's volume {@code name}, or null when it has none. */
    private static String volumeClaim(JsonNode pod, String name) {
        for (JsonNode volume : pod.path("spec").path("volumes")) {
            if (name.equals(volume.path("name").asText())) {
                return volume.path("persistentVolumeClaim").path("claimName").asText(null);
            }
        }
        return null;
    }

    private static JsonNode copyContainerExitCode(JsonNode pod) {
        JsonNode found = null;
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            if (CONTAINER.equals(status.path("name").asText())) {
                if (found != null) {
                    return null;
                }
                found = status.path("state").path("terminated").path("exitCode");
            }
        }
        return found == null || found.isMissingNode() ? null : found;
    }

    private static String refuseLog(PodLog log) {
        if (log == null || !log.complete()) {
            return "its log was cut short (over " + PodLog.LIMIT_BYTES + " bytes): the copy cannot be proven from it";
        }
        if (!log.text().endsWith("\n")) {
            return "its log does not end with a whole line: the copy cannot be proven from it";
        }
        return null;
    }

    /** The script's lines in the order the contract prints them; each kind's rank, progress the only one repeated. */
    private static final class Reading {
        private static final int START_RANK = 0;
        private static final int PROGRESS_RANK = 1;
        private static final int SRC_RANK = 2;
        private static final int DST_RANK = 3;
        private static final int FILE_SYSTEM_RANK = 4;
        private static final int VERIFIED_RANK = 5;

        private int last = -1;
        private Matcher src;
        private Matcher dst;
        private String fileSystem = "";

        /** Null when every line of the script's prefix is well formed and in order, with src, dst and verified; else why not. */
        String read(String text) {
            int number = 0;
            for (String line : text.split("\n", -1)) {
                number++;
                if (!line.startsWith(LINE_PREFIX)) {
                    continue;
                }
                String rest = line.substring(LINE_PREFIX.length());
                if (rest.startsWith("differs")) {
                    return "the copy differs from its source (" + shown(rest) + ")";
                }
                if (rest.startsWith("error")) {
                    return "the copy script failed (" + shown(rest) + ")";
                }
                int rank = rank(rest);
                if (rank < 0) {
                    return "line " + number + " of its log is not one the copy script prints: " + shown(line);
                }
                if (rank < last || (rank == last && rank != PROGRESS_RANK) || (last < START_RANK && rank != START_RANK)) {
                    return "line " + number + " of its log is out of order or repeated: " + shown(line);
                }
                last = rank;
            }
            if (src == null || dst == null || last != VERIFIED_RANK) {
                return "its log lacks " + (src == null ? "the source manifest" : dst == null ? "the copy's manifest" : "the verified line")
                        + ": the copy is not proven";
            }
            return null;
        }

        private int rank(String rest) {
            if (START.matcher(rest).matches()) {
                return START_RANK;
            }
            if (PROGRESS.matcher(rest).matches()) {
                return PROGRESS_RANK;
            }
            Matcher manifest = MANIFEST.matcher(rest);
            if (manifest.matches()) {
                if (manifest.group(1).equals("src")) {
                    src = manifest;
                    return SRC_RANK;
                }
                dst = manifest;
                return DST_RANK;
            }
            if (FILE_SYSTEM.matcher(rest).matches()) {
                fileSystem = rest.substring("filesystem ".length());
                return FILE_SYSTEM_RANK;
            }
            return rest.equals("verified") ? VERIFIED_RANK : -1;
        }

        /** Null when both manifests are equal in digest, files and bytes; else what differs. */
        String differs() {
            String[] what = {"sha256", "files", "bytes"};
            for (int group = 2; group <= 4; group++) {
                if (!src.group(group).equals(dst.group(group))) {
                    return "the manifests differ in " + what[group - 2] + " (source " + src.group(group) + ", copy " + dst.group(group)
                            + ") although the script printed verified";
                }
            }
            return null;
        }
    }

    /** A line of untrusted output as shown to the operator: bounded, control characters escaped. */
    public static String shown(String line) {
        String cut = line.length() > 200 ? line.substring(0, 200) + "…" : line;
        StringBuilder out = new StringBuilder();
        cut.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private static String cut(String name) {
        if (name.length() <= MAX_NAME) {
            return name;
        }
        String hash = HexFormat.of().formatHex(sha256(name)).substring(0, 10);
        return name.substring(0, MAX_NAME - hash.length() - 1) + "-" + hash;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
