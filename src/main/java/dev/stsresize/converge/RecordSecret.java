package dev.stsresize.converge;

import dev.stsresize.plan.Metadata;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The in-cluster copy of a run's {@link Record}: Secret {@code stsresize-<name>} in the StatefulSet's
 * namespace, of its own type {@value #TYPE}, labelled, its one key {@value #KEY} the gzip of the
 * record's JSON (phase left out: the Lease carries it). A Secret, because reading it takes at least
 * the rights that read the StatefulSet (env values included), unlike a Lease, which leader-election
 * Roles grant widely; and because it holds 1 MiB where annotations hold 256 KiB in all. The Lease
 * holds the sha256 of the same JSON ({@value #DIGEST}): a Secret that does not match it is not the
 * record of the run holding the lock.
 */
public final class RecordSecret {
    public static final String TYPE = "stsresize.dev/record";
    public static final String KEY = "record.json.gz";
    /** The Lease's (and the Secret's) annotation holding the sha256 of the record JSON. */
    public static final String DIGEST = "stsresize.dev/record-sha256";
    public static final String MANAGED_BY = "kubectl-stsresize";
    /** pkg/apis/core/types.go MaxSecretSize: the decoded data of a Secret, validated by ValidateSecret. */
    static final int MAX_SECRET_SIZE = 1024 * 1024;
    /** Far above any record of a StatefulSet the API server accepts; a gzip bomb stops here. */
    private static final int MAX_UNZIPPED = 32 * 1024 * 1024;

    private RecordSecret() {}

    /** The same name as the Lease: {@code stsresize-<name>}, cut at 253. */
    public static String name(String statefulSet) {
        return LeaseLock.leaseName(statefulSet);
    }

    /** The record's JSON as stored (and digested): without the phase, which changes as the run goes. */
    static byte[] payload(Record r) {
        ObjectNode o = r.toJson();
        o.remove("phase");
        return Objects.json(o).getBytes(StandardCharsets.UTF_8);
    }

    static String digest(byte[] payload) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] gzip(byte[] payload) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(bytes)) {
            z.write(payload);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Why this record cannot be kept in a Secret (one paragraph), or null when it fits. Asked before
     * the run's first write, so that a record that cannot be stored stops nothing half-way.
     */
    static String whyTooLarge(Record r) {
        byte[] payload = payload(r);
        int zipped = gzip(payload).length;
        if (zipped <= MAX_SECRET_SIZE) {
            return null;
        }
        return "StatefulSet " + r.namespace() + "/" + r.name() + " cannot be resized by this plugin: the record a run keeps before"
                + " its first write (the live object and the object to re-apply, " + payload.length + " bytes, " + zipped
                + " gzipped) does not fit in Secret " + r.namespace() + "/" + name(r.name()) + ", which holds at most "
                + MAX_SECRET_SIZE + " bytes (kube-apiserver's MaxSecretSize); without a record an interrupted run could not be"
                + " finished, so nothing was written. Shrink what the StatefulSet carries inline (large env values or"
                + " annotations belong in a ConfigMap or Secret it mounts), then run again";
    }

    /** The Secret to write for {@code r}, over {@code current} (resourceVersion kept) or new. */
    static ObjectNode object(Record r, ObjectNode current) {
        byte[] payload = payload(r);
        ObjectNode s = Objects.MAPPER.createObjectNode();
        s.put("apiVersion", "v1").put("kind", "Secret");
        ObjectNode meta = s.putObject("metadata");
        meta.put("name", name(r.name())).put("namespace", r.namespace());
        if (current != null) {
            meta.put("resourceVersion", Metadata.textOrEmpty(current, "metadata", "resourceVersion"));
        }
        ObjectNode labels = meta.putObject("labels");
        labels.put("app.kubernetes.io/managed-by", MANAGED_BY);
        if (r.name().length() <= 63) {
            labels.put("stsresize.dev/statefulset", r.name());
        }
        meta.putObject("annotations").put(DIGEST, digest(payload));
        s.put("type", TYPE);
        s.putObject("data").put(KEY, Base64.getEncoder().encodeToString(gzip(payload)));
        return s;
    }

    /** A stored record that cannot be read or does not match its Lease: why, in words. */
    static final class Unreadable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unreadable(String why) {
            super(why);
        }
    }

    /**
     * The record in {@code secret}, checked against the Lease's {@code digest}: of our type, its data
     * gunzipped (bounded) and hashed to exactly that digest.
     *
     * @throws Unreadable saying what did not match
     */
    static Record read(ObjectNode secret, String digest) {
        if (!TYPE.equals(secret.path("type").asText())) {
            throw new Unreadable("it is of type \"" + secret.path("type").asText() + "\", not " + TYPE);
        }
        JsonNode data = secret.path("data").path(KEY);
        if (!data.isTextual()) {
            throw new Unreadable("it has no data key " + KEY);
        }
        byte[] payload;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(data.asText())))) {
            payload = in.readNBytes(MAX_UNZIPPED + 1);
        } catch (IOException | IllegalArgumentException e) {
            throw new Unreadable("its data is not gzip in base64 (" + e.getMessage() + ")");
        }
        if (payload.length > MAX_UNZIPPED) {
            throw new Unreadable("its data unzips to more than " + MAX_UNZIPPED + " bytes");
        }
        if (digest.isEmpty() || !digest.equals(digest(payload))) {
            throw new Unreadable("its sha256 " + digest(payload) + " is not the one its Lease holds (" + (digest.isEmpty() ? "none" : digest) + ")");
        }
        try {
            return Record.fromJson(Objects.MAPPER.readTree(payload));
        } catch (IOException | RuntimeException e) {
            throw new Unreadable("its record is not JSON (" + e.getMessage() + ")");
        }
    }
}
