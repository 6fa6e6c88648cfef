package dev.stsresize.sim.node;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What each PersistentVolume holds, by PV name: its file count, bytes and the sha256 of its manifest (one line per
 * entry: path, type, owner, mode, size, sha256, link target; the copy pod's contract in docs/design.md). The simulator's own model,
 * never served as an object: a copy pod reads the source's and writes the destination's. A volume nobody wrote is
 * seeded from its name and the used bytes the usage model gives its claim, so the same volume holds the same
 * content in every run; equal content has an equal digest.
 */
public final class VolumeContents {
    /** One volume's content; {@code origin} names what it is a copy of, so that equal content digests equal. */
    public record Content(long files, long bytes, String origin) {
        public String manifestSha256() {
            return sha256("stsresize-manifest|" + origin + "|" + files + "|" + bytes);
        }

        /** The manifest line of its last file, as the copy script would print it. */
        public String lastEntry() {
            String sha = sha256("file|" + origin + "|" + files + "|" + bytes);
            long size = files == 0 ? 0 : Math.max(0, bytes - (files - 1) * (bytes / Math.max(1, files)));
            return String.format("./data/file-%05d f 999:999 0600 %d %s -", files, size, sha);
        }
    }

    private final Map<String, Content> byVolume = new ConcurrentHashMap<>();

    /** Volume {@code pv}'s content; {@code usedBytes} gives its claim's used bytes if it was never written. */
    public Content of(String pv, LongSupplier usedBytes) {
        return byVolume.computeIfAbsent(pv, v -> {
            long bytes = usedBytes.getAsLong();
            long files = bytes == 0 ? 0 : 1 + Math.floorMod(v.hashCode(), 400) + bytes / (64L << 20);
            return new Content(files, bytes, v);
        });
    }

    public void set(String pv, Content content) {
        byVolume.put(pv, content);
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
