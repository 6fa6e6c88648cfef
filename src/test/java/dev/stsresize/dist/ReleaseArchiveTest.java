package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The archive depends on its inputs' bytes, names and modes only: not on order, file times or the clock. */
class ReleaseArchiveTest {
    static final Instant STAMP = Instant.parse("2026-12-01T00:00:00Z");

    @Test
    void sameInputsGiveTheSameBytesWhateverTheOrderAndFileTimes(@TempDir Path tmp) throws IOException {
        Path a = Files.writeString(tmp.resolve("a"), "#!/bin/sh\necho a\n");
        Path b = Files.writeString(tmp.resolve("b"), "b".repeat(1000));
        List<ReleaseArchive.Entry> entries = List.of(new ReleaseArchive.Entry("kubectl-x", a, 0755),
                new ReleaseArchive.Entry("LICENSE", b, 0644));
        String first = ReleaseArchive.write(tmp.resolve("one/x.tar.gz"), STAMP, entries);
        Files.setLastModifiedTime(a, FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));
        String second = ReleaseArchive.write(tmp.resolve("two/x.tar.gz"), STAMP, List.of(entries.get(1), entries.get(0)));
        assertThat(second).isEqualTo(first).matches("[0-9a-f]{64}");
        assertThat(Files.readAllBytes(tmp.resolve("two/x.tar.gz"))).isEqualTo(Files.readAllBytes(tmp.resolve("one/x.tar.gz")));
        assertThat(Files.readString(tmp.resolve("one/x.tar.gz.sha256"))).isEqualTo(first + "  x.tar.gz\n");
        // and the guard can fail: another timestamp or mode is another archive
        assertThat(ReleaseArchive.write(tmp.resolve("three/x.tar.gz"), STAMP.plusSeconds(1), entries)).isNotEqualTo(first);
        assertThat(ReleaseArchive.write(tmp.resolve("four/x.tar.gz"), STAMP,
                List.of(new ReleaseArchive.Entry("kubectl-x", a, 0700), entries.get(1)))).isNotEqualTo(first);
    }

    @Test
    void gzipHeaderHasNoTimeAndTarHeadersAreSortedOwnedByRootWithTheGivenModes(@TempDir Path tmp) throws IOException {
        Path a = Files.writeString(tmp.resolve("a"), "x");
        Path out = tmp.resolve("x.tar.gz");
        ReleaseArchive.write(out, STAMP, List.of(new ReleaseArchive.Entry("z", a, 0644), new ReleaseArchive.Entry("kubectl-x", a, 0755)));
        byte[] gz = Files.readAllBytes(out);
        assertThat(new byte[] {gz[4], gz[5], gz[6], gz[7]}).as("gzip MTIME").containsOnly(0);
        byte[] tar = new GZIPInputStream(new ByteArrayInputStream(gz)).readAllBytes();
        List<String> names = new ArrayList<>();
        for (int off = 0; tar[off] != 0; off += 1024) { // each entry here: a header and one block of content
            names.add(field(tar, off, 100));
            assertThat(field(tar, off + 108, 8)).as("uid").isEqualTo("0000000");
            assertThat(field(tar, off + 116, 8)).as("gid").isEqualTo("0000000");
            assertThat(Long.parseLong(field(tar, off + 136, 12), 8)).isEqualTo(STAMP.getEpochSecond());
            assertThat(field(tar, off + 265, 32)).as("no user name").isEmpty();
        }
        assertThat(names).containsExactly("kubectl-x", "z");
        assertThat(field(tar, 100, 8)).isEqualTo("0000755");
        assertThat(tar.length % 512).isZero();
    }

    @Test
    void refusesANameTarCannotHoldInItsHeader(@TempDir Path tmp) throws IOException {
        Path a = Files.writeString(tmp.resolve("a"), "x");
        assertThatThrownBy(() -> ReleaseArchive.write(tmp.resolve("x.tar.gz"), STAMP, List.of(new ReleaseArchive.Entry("n".repeat(101), a, 0644))))
                .hasMessageContaining("longer than 100 bytes");
    }

    private static String field(byte[] tar, int offset, int length) {
        int end = offset;
        while (end < offset + length && tar[end] != 0) {
            end++;
        }
        return new String(tar, offset, end - offset, StandardCharsets.US_ASCII);
    }
}
