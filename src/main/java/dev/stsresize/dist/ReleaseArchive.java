package dev.stsresize.dist;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Writes the release archive krew downloads, byte for byte the same for the same inputs: ustar
 * entries sorted by name, one fixed mtime (the build's {@code project.build.outputTimestamp}),
 * owner 0:0 with no user or group names, modes given explicitly (never the checkout's umask), and a
 * gzip header without a timestamp or file name (Java's {@link GZIPOutputStream} writes MTIME 0).
 * maven-assembly-plugin leaves the gzip MTIME and the owner names to the build machine, hence this.
 * Beside it, {@code NAME.sha256} holds the lowercase digest as {@code sha256sum -c} reads it.
 *
 * <p>Run at package time: {@code ReleaseArchive OUT.tar.gz TIMESTAMP MODE:NAME=FILE...}.
 */
public final class ReleaseArchive {
    public record Entry(String name, Path file, int mode) {}

    private ReleaseArchive() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: ReleaseArchive OUT.tar.gz TIMESTAMP MODE:NAME=FILE...");
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            String spec = args[i];
            int colon = spec.indexOf(':');
            int eq = spec.indexOf('=');
            entries.add(new Entry(spec.substring(colon + 1, eq), Path.of(spec.substring(eq + 1)),
                    Integer.parseInt(spec.substring(0, colon), 8)));
        }
        write(Path.of(args[0]), Instant.parse(args[1]), entries);
    }

    /** Writes the archive and its {@code .sha256}; returns the digest. */
    public static String write(Path out, Instant mtime, List<Entry> entries) throws IOException {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(Entry::name));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            for (Entry e : sorted) {
                byte[] content = Files.readAllBytes(e.file());
                gz.write(header(e.name(), content.length, e.mode(), mtime.getEpochSecond()));
                gz.write(content);
                gz.write(new byte[pad(content.length)]);
            }
            gz.write(new byte[1024]); // two zero blocks end a tar
        }
        byte[] archive = bytes.toByteArray();
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.write(out, archive);
        String digest = sha256(archive);
        Files.writeString(out.resolveSibling(out.getFileName() + ".sha256"),
                digest + "  " + out.getFileName() + "\n", StandardCharsets.US_ASCII);
        return digest;
    }

    public static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    private static int pad(long size) {
        return (int) ((512 - size % 512) % 512);
    }

    /** A POSIX ustar header for a regular file. */
    static byte[] header(String name, long size, int mode, long mtime) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        if (n.length > 100) {
            throw new IllegalArgumentException("archive entry name longer than 100 bytes: " + name);
        }
        byte[] h = new byte[512];
        System.arraycopy(n, 0, h, 0, n.length);
        octal(h, 100, 8, mode);
        octal(h, 108, 8, 0); // uid
        octal(h, 116, 8, 0); // gid
        octal(h, 124, 12, size);
        octal(h, 136, 12, mtime);
        h[156] = '0'; // regular file
        put(h, 257, "ustar\0");
        put(h, 263, "00");
        for (int i = 148; i < 156; i++) {
            h[i] = ' '; // the checksum is computed with its own field as spaces
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        h[155] = ' ';
        return h;
    }

    /** NUL-terminated, zero-padded octal, as tar writes numbers. */
    private static void octal(byte[] h, int offset, int length, long value) {
        String s = Long.toOctalString(value);
        if (s.length() > length - 1) {
            throw new IllegalArgumentException("value too large for a tar header field: " + value);
        }
        put(h, offset, "0".repeat(length - 1 - s.length()) + s);
        h[offset + length - 1] = 0;
    }

    private static void put(byte[] h, int offset, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, h, offset, b.length);
    }

}
