package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.CopyCheck;
import dev.stsresize.cluster.CopyPodLog;
import dev.stsresize.cluster.CopyVerified;
import dev.stsresize.cluster.PodLog;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.testkit.Processes;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy pod's script run for real with busybox sh (the default image's shell and tools) on host folders: the copy
 * is compared with its source by Java's own reading of both trees (owners, modes, times, link targets, hard links,
 * bytes), never by the script's manifest alone, and {@link CopyPodLog#verify} reads its output as the plugin will.
 * Runs as root (it keeps owners), as CI does; skips, saying why, without busybox or root.
 */
class CopyScriptTest {
    static final Instant OLD = Instant.parse("2001-02-03T04:05:06Z");
    static final String NEWLINE_NAME = "new\nline\n";

    @TempDir Path dir;
    Path src;
    Path dst;
    Path script;

    @BeforeEach
    void prepare() throws IOException {
        assumeTrue(Processes.onPath("busybox"), "busybox is not installed (Debian's package busybox-static; CI installs it): the copy script is not run");
        Path probe = Files.createFile(dir.resolve("probe"));
        assumeTrue(((Integer) Files.getAttribute(probe, "unix:uid")) == 0, "not root: the copy keeps owners, so it runs as root (as CI and the pod do)");
        src = Files.createDirectory(dir.resolve("src"));
        dst = Files.createDirectory(dir.resolve("dst"));
        Files.createDirectory(dir.resolve("tmp"));
        script = dir.resolve("copy.sh");
        Files.writeString(script, CopyPodSpec.script());
    }

    /** The script under busybox sh, with {@code prelude} (shell functions standing in for a tool) before it. */
    Processes.Result run(String prelude) throws Exception {
        Path file = script;
        if (!prelude.isEmpty()) {
            file = dir.resolve("copy-with-fault.sh");
            Files.writeString(file, prelude + "\n" + CopyPodSpec.script());
        }
        return Processes.run(Map.of("SRC", src.toString(), "DST", dst.toString(), "TMPDIR", dir.resolve("tmp").toString(),
                "PROGRESS_SECONDS", "1"), dir, Duration.ofSeconds(120), "busybox", "sh", file.toString());
    }

    /** The copy pod as the kubelet leaves it after this run: the plugin's spec, phase and exit code from the run. */
    static ObjectNode pod(int exitCode) {
        ObjectNode pod = CopyPodSpec.of("shop", "data-db-1", "stsresize-data-db-1", CopyOptIn.DEFAULT_IMAGE);
        ((ObjectNode) pod.get("metadata")).put("uid", "pod-uid");
        ObjectNode status = pod.putObject("status").put("phase", exitCode == 0 ? "Succeeded" : "Failed");
        status.putArray("containerStatuses").addObject().put("name", "copy").putObject("state").putObject("terminated").put("exitCode", exitCode);
        return pod;
    }

    static CopyCheck verify(ObjectNode pod, String out) {
        return CopyPodLog.verify("shop", "data-db-1", pod, new PodLog(out, true));
    }

    static void busybox(Path in, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("busybox"));
        cmd.addAll(List.of(args));
        Processes.Result r = Processes.run(Map.of(), in, Duration.ofSeconds(30), cmd.toArray(String[]::new));
        assertThat(r.code()).as("busybox %s: %s", args, r.err()).isZero();
    }

    static void chown(Path p, int uid, int gid) throws IOException {
        Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(p, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
    }

    static void mode(Path p, int mode) throws IOException {
        Files.setAttribute(p, "unix:mode", mode);
    }

    static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /**
     * A volume's kind of content: files of 0 B, KiB and MiB, a sub-folder, a symlink, a hard link, a 0600 file of
     * 1234:5678, names with spaces, a tab, newlines, a backslash and a leading dash, dot-files, a sparse file, a fifo, a
     * socket, a device where mknod is allowed, lost+found, a folder of 450 files, a folder with an old mtime, and the root's
     * own owner and mode.
     */
    void sourceTree() throws Exception {
        Files.write(src.resolve("empty"), new byte[0]);
        Files.write(src.resolve("small.txt"), random(3 * 1024 + 7, 1));
        Files.write(src.resolve("big.bin"), random(6 * 1024 * 1024 + 13, 2));
        Path sub = Files.createDirectories(src.resolve("sub/deeper"));
        Files.write(sub.resolve("nested.dat"), random(5000, 3));
        Files.createSymbolicLink(src.resolve("link"), Path.of("sub/deeper/nested.dat"));
        Files.createSymbolicLink(src.resolve("dangling"), Path.of("../nowhere"));
        Files.createLink(src.resolve("hard"), src.resolve("small.txt"));
        Path secret = Files.write(src.resolve("secret"), "token".getBytes());
        chown(secret, 1234, 5678);
        mode(secret, 0600);
        Files.write(src.resolve("with space.txt"), random(100, 4));
        Files.write(src.resolve("tab\there"), random(10, 5));
        Files.write(src.resolve(NEWLINE_NAME), random(20, 6));
        Files.write(src.resolve("back\\slash"), random(30, 7));
        Files.write(src.resolve("-dash"), random(40, 8));
        Files.write(src.resolve(".hidden"), random(50, 9));
        Files.write(src.resolve("..double"), random(60, 10));
        try (RandomAccessFile sparse = new RandomAccessFile(src.resolve("sparse.img").toFile(), "rw")) {
            sparse.setLength(4L * 1024 * 1024);
            sparse.seek(1024 * 1024);
            sparse.write(random(100, 11));
        }
        busybox(src, "mkfifo", "fifo");
        try (ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            socket.bind(UnixDomainSocketAddress.of(src.resolve("socket")));
        }
        Processes.run(Map.of(), src, Duration.ofSeconds(10), "busybox", "mknod", "null-device", "c", "1", "3"); // where allowed
        Path many = Files.createDirectory(src.resolve("many")); // more than one batch of the manifest's 200 paths
        for (int i = 0; i < 450; i++) {
            Files.write(many.resolve("f" + i), random(i % 17, i));
        }
        Path lostFound = Files.createDirectory(src.resolve("lost+found"));
        mode(lostFound, 0700);
        Path old = Files.createDirectory(src.resolve("old"));
        Files.write(old.resolve("inside"), random(70, 12));
        Files.setLastModifiedTime(old.resolve("inside"), FileTime.from(OLD.plusSeconds(60)));
        Files.setLastModifiedTime(old, FileTime.from(OLD));
        chown(src, 999, 998);
        mode(src, 0750);
    }

    @Test
    void a_copy_onto_a_destination_with_leftovers_keeps_every_owner_mode_time_link_and_byte_and_verify_accepts_it() throws Exception {
        sourceTree();
        Files.write(dst.resolve("stray"), "from an earlier try".getBytes());
        Files.write(dst.resolve(".stray-dot"), new byte[1]);
        Files.createDirectories(dst.resolve("lost+found/#123"));

        Processes.Result r = run("");

        assertThat(r.code()).as(r.out() + r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).allMatch(l -> l.startsWith("stsresize-copy: "));
        assertThat(lines.get(lines.size() - 1)).isEqualTo("stsresize-copy: verified");
        assertThat(lines).anyMatch(l -> l.startsWith("stsresize-copy: progress files="));
        assertThat(lines).anyMatch(l -> l.matches("stsresize-copy: filesystem [A-Za-z0-9_.-]+ size-kib=[0-9]+ used-kib=[0-9]+"));

        CopyCheck check = verify(pod(0), r.out());
        assertThat(check).as(check.toString()).isInstanceOf(CopyVerified.class);
        CopyVerified copy = (CopyVerified) check;
        assertThat(copy.files()).as("entries below the root, as Java counts them").isEqualTo(entries(src).size());
        assertThat(copy.bytes()).as("bytes of the regular files, as Java sums them").isEqualTo(regularBytes(src));
        assertThat(copy.destination()).isEqualTo("stsresize-data-db-1");
        assertThat(lines.get(0)).isEqualTo("stsresize-copy: start src-files=" + copy.files() + " src-bytes=" + copy.bytes());

        assertThat(entries(dst)).as("the leftovers are gone, every entry is there").isEqualTo(entries(src));
        for (String entry : entries(src)) {
            assertSame(src.resolve(entry), dst.resolve(entry), entry);
        }
        assertSame(src, dst, "the root");
        assertThat(Files.getLastModifiedTime(dst.resolve("old")).toInstant()).as("a folder's old mtime").isEqualTo(OLD);
        assertThat(Files.getAttribute(dst.resolve("hard"), "unix:ino")).as("busybox cp -a keeps a hard link")
                .isEqualTo(Files.getAttribute(dst.resolve("small.txt"), "unix:ino"));
    }

    @Test
    void an_empty_source_is_a_verified_copy_of_nothing() throws Exception {
        Files.write(dst.resolve("stray"), new byte[1]);
        Processes.Result r = run("");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        CopyVerified copy = (CopyVerified) verify(pod(0), r.out());
        assertThat(copy.files()).isZero();
        assertThat(copy.bytes()).isZero();
        assertThat(entries(dst)).isEmpty();
    }

    @Test
    void negative_control_a_cp_that_drops_one_byte_makes_the_copy_differ_exit_3_and_verify_refuse() throws Exception {
        sourceTree();
        Processes.Result r = run("cp() { command cp \"$@\" && truncate -s " + (6 * 1024 * 1024 + 12) + " \"$DST/big.bin\"; }");

        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(3);
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(lines.size() - 1)).startsWith("stsresize-copy: differs ./big.bin f 0:0 644 1 6291469 ")
                .contains(" | ./big.bin f 0:0 644 1 6291468 ");
        assertThat(lines).doesNotContain("stsresize-copy: verified");
        assertThat(verify(pod(3), r.out())).isInstanceOf(CopyCheck.Unverified.class);
        CopyCheck forged = verify(pod(0), r.out());
        assertThat(forged).as("even a pod that claims exit 0").isInstanceOf(CopyCheck.Unverified.class);
        assertThat(((CopyCheck.Unverified) forged).reason()).contains("differs from its source");
    }

    @Test
    void negative_control_a_mode_changed_after_the_copy_is_found() throws Exception {
        sourceTree();
        Processes.Result r = run("cp() { command cp \"$@\" && chmod 0644 \"$DST/secret\"; }");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(3);
        assertThat(r.out().lines().reduce((a, b) -> b).orElseThrow())
                .startsWith("stsresize-copy: differs ./secret f 1234:5678 600 ").contains(" | ./secret f 1234:5678 644 ");
    }

    @Test
    void negative_control_a_failed_cp_says_error_never_verified_and_its_message_cannot_forge_a_line() throws Exception {
        sourceTree();
        Processes.Result r = run("cp() { printf 'cp: cannot copy x\\nstsresize-copy: verified\\n' >&2; return 1; }");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("stsresize-copy: error cp -a exited 1").doesNotContain("stsresize-copy: verified")
                .doesNotContain("manifest");
        assertThat((r.out() + r.err()).lines()).as("a tool's message is indented, whatever it holds")
                .filteredOn(l -> l.contains("stsresize-copy: verified")).allMatch(l -> l.startsWith("  "));
        assertThat(verify(pod(0), r.out())).isInstanceOf(CopyCheck.Unverified.class);
    }

    @Test
    void negative_control_a_cut_log_of_a_good_copy_proves_nothing() throws Exception {
        sourceTree();
        Processes.Result r = run("");
        assertThat(r.code()).isZero();
        String out = r.out();
        assertThat(verify(pod(0), out.substring(0, out.lastIndexOf("stsresize-copy: verified")))).isInstanceOf(CopyCheck.Unverified.class);
        assertThat(verify(pod(0), out.substring(0, out.length() - 1))).isInstanceOf(CopyCheck.Unverified.class);
        assertThat(CopyPodLog.verify("shop", "data-db-1", pod(0), new PodLog(out, false))).isInstanceOf(CopyCheck.Unverified.class);
    }

    @Test
    void a_destination_inside_the_source_is_refused_before_anything_is_removed() throws Exception {
        Files.write(src.resolve("keep"), new byte[3]);
        dst = Files.createDirectory(src.resolve("inner"));
        Processes.Result r = run("");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("stsresize-copy: error the destination").doesNotContain("start");
        assertThat(src.resolve("keep")).exists();
    }

    @Test
    void the_script_is_posix_sh_by_shellcheck_and_starts_with_the_mark_the_simulated_kubelet_reads() throws Exception {
        assertThat(CopyPodSpec.script()).startsWith(CopyPodSpec.SCRIPT_MARK + "\n");
        assertThat(Processes.run(Map.of(), dir, Duration.ofSeconds(30), "busybox", "sh", "-n", script.toString()).code()).isZero();
        assumeTrue(Processes.onPath("shellcheck"), "shellcheck is not installed (CI installs Debian's package): the lint is skipped");
        Processes.Result r = Processes.run(Map.of(), dir, Duration.ofSeconds(60), "shellcheck", "--shell=sh", script.toString());
        assertThat(r.code()).as(r.out()).isZero();

        Path bad = dir.resolve("bad.sh");
        Files.writeString(bad, CopyPodSpec.script().replace("if [ -n \"$work\" ]; then", "if [[ -n \"$work\" ]]; then"));
        assertThat(Files.readString(bad)).contains("[[");
        assertThat(Processes.run(Map.of(), dir, Duration.ofSeconds(60), "shellcheck", "--shell=sh", bad.toString()).code())
                .as("the lint can fail: a bashism").isNotZero();
    }

    /** The paths below {@code root}, relative, as Java lists them (symlinks not followed). */
    static TreeSet<String> entries(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            TreeSet<String> out = new TreeSet<>();
            walk.filter(p -> !p.equals(root)).forEach(p -> out.add(root.relativize(p).toString()));
            return out;
        }
    }

    static long regularBytes(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sum();
        }
    }

    /**
     * Java's reading of one entry on both sides: type and mode (unix:mode holds both), owner, link count of all but
     * folders, device number, symlink target, bytes of a regular file, and mtime to the second for all but symlinks
     * (busybox cp restores times with utime(): whole seconds; a symlink's time not at all).
     */
    static void assertSame(Path a, Path b, String what) throws IOException {
        Map<String, Object> x = Files.readAttributes(a, "unix:mode,uid,gid,nlink,rdev,size,lastModifiedTime", LinkOption.NOFOLLOW_LINKS);
        Map<String, Object> y = Files.readAttributes(b, "unix:mode,uid,gid,nlink,rdev,size,lastModifiedTime", LinkOption.NOFOLLOW_LINKS);
        assertThat(y.get("mode")).as(what + ": type and mode").isEqualTo(x.get("mode"));
        assertThat(y.get("uid")).as(what + ": uid").isEqualTo(x.get("uid"));
        assertThat(y.get("gid")).as(what + ": gid").isEqualTo(x.get("gid"));
        assertThat(y.get("rdev")).as(what + ": device").isEqualTo(x.get("rdev"));
        if (Files.isSymbolicLink(a)) {
            assertThat(Files.readSymbolicLink(b)).as(what + ": link target").isEqualTo(Files.readSymbolicLink(a));
            return;
        }
        assertThat(((FileTime) y.get("lastModifiedTime")).toInstant().getEpochSecond()).as(what + ": mtime")
                .isEqualTo(((FileTime) x.get("lastModifiedTime")).toInstant().getEpochSecond());
        if (Files.isDirectory(a, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        assertThat(y.get("nlink")).as(what + ": link count").isEqualTo(x.get("nlink"));
        if (Files.isRegularFile(a, LinkOption.NOFOLLOW_LINKS)) {
            assertThat(Files.mismatch(a, b)).as(what + ": bytes").isEqualTo(-1L);
        }
    }
}
