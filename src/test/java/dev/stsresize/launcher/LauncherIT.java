package dev.stsresize.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The POSIX-sh launcher as kubectl and krew use it: through PATH, through a symlink, and with a bad Java. */
class LauncherIT {
    private static final Path LAUNCHER = Paths.get(System.getProperty("stsresize.launcher", "target/kubectl-stsresize"))
            .toAbsolutePath();

    record Run(int code, String out, String err) {
        String describe() {
            return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    static Run run(Map<String, String> env, Path dir, String... cmd) throws IOException, InterruptedException {
        Map<String, String> all = new java.util.HashMap<>(env);
        // the launcher trains its start-up archive in the cache: never the tester's own
        all.putIfAbsent("XDG_CACHE_HOME", dir.resolve(".cache").toString());
        // the training runs detached after the command and would still be writing into the test's
        // temporary directory while JUnit deletes it; only ClassDataSharingIT turns it on (and waits)
        all.putIfAbsent("STSRESIZE_CDS", "0");
        var r = dev.stsresize.testkit.Processes.run(all, dir, java.time.Duration.ofSeconds(60), cmd);
        return new Run(r.code(), r.out(), r.err());
    }

    static boolean onPath(String tool) {
        return dev.stsresize.testkit.Processes.onPath(tool);
    }

    @Test
    void kubectlFindsThePluginOnPathAndItsHelpStartsWithKubectlStsresize(@TempDir Path tmp) throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not installed: the plugin-discovery test needs the real kubectl");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("kubectl-stsresize"), LAUNCHER);
        String path = bin + ":" + System.getenv("PATH");
        Run r = run(Map.of("PATH", path, "KUBECONFIG", tmp.resolve("none").toString()), tmp, "kubectl", "stsresize", "--help");
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.out()).as(r.describe()).startsWith("Usage: kubectl stsresize");
        assertThat(r.err()).as(r.describe()).isEmpty();
    }

    @Test
    void resolvesItsRealPathThroughAChainOfRelativeSymlinks(@TempDir Path tmp) throws Exception {
        // krew: ~/.krew/bin/kubectl-stsresize -> ../store/stsresize/v1/kubectl-stsresize
        Path store = Files.createDirectories(tmp.resolve("store/stsresize/v1"));
        Files.copy(LAUNCHER, store.resolve("kubectl-stsresize"));
        Files.copy(LAUNCHER.resolveSibling("kubectl-stsresize.jar"), store.resolve("kubectl-stsresize.jar"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("link1"), Paths.get("../store/stsresize/v1/kubectl-stsresize"));
        Files.createSymbolicLink(bin.resolve("kubectl-stsresize"), Paths.get("link1"));
        Run r = run(Map.of(), tmp, bin.resolve("kubectl-stsresize").toString(), "--version");
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.out()).as(r.describe()).startsWith("kubectl-stsresize ");
    }

    @Test
    void theCompletionHelperRunsTheLauncherBesideItsRealPathOrOnPath(@TempDir Path tmp) throws Exception {
        // from the archive: ~/.local/bin/kubectl_complete-stsresize -> ../share/kubectl-stsresize/kubectl_complete-stsresize
        Path share = Files.createDirectories(tmp.resolve("share/kubectl-stsresize"));
        Files.copy(LAUNCHER, share.resolve("kubectl-stsresize"));
        Files.copy(LAUNCHER.resolveSibling("kubectl-stsresize.jar"), share.resolve("kubectl-stsresize.jar"));
        Files.copy(LAUNCHER.resolveSibling("kubectl_complete-stsresize"), share.resolve("kubectl_complete-stsresize"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("kubectl_complete-stsresize"),
                Paths.get("../share/kubectl-stsresize/kubectl_complete-stsresize"));
        Run linked = run(Map.of("PATH", "/usr/bin:/bin"), tmp, bin.resolve("kubectl_complete-stsresize").toString(), "pl");
        assertThat(linked.out()).as(linked.describe()).startsWith("plan\t").endsWith(":4\n");

        // krew: a copy in krew's bin, beside the link to the plugin
        Path krewBin = Files.createDirectories(tmp.resolve("krew/bin"));
        Files.createSymbolicLink(krewBin.resolve("kubectl-stsresize"), share.resolve("kubectl-stsresize"));
        Files.copy(share.resolve("kubectl_complete-stsresize"), krewBin.resolve("kubectl_complete-stsresize"));
        Run copied = run(Map.of("PATH", "/usr/bin:/bin"), tmp, krewBin.resolve("kubectl_complete-stsresize").toString(), "completion", "");
        assertThat(copied.out()).as(copied.describe()).isEqualTo("bash\nzsh\nfish\n:4\n");
    }

    @Test
    void saysWhatToInstallWhenNoJavaIsFound(@TempDir Path tmp) throws Exception {
        // a PATH with the shell tools the launcher uses but no java
        Path bin = toolsWithout(tmp, "java");
        Run r = run(Map.of("PATH", bin.toString(), "JAVA_HOME", tmp.resolve("nojdk").toString()), tmp,
                "/bin/sh", LAUNCHER.toString(), "--help");
        assertThat(r.code()).as(r.describe()).isEqualTo(1);
        assertThat(r.err()).as(r.describe()).contains("needs Java 17 or newer").contains("no 'java' was found")
                .contains("JAVA_HOME");
        assertThat(r.out()).as(r.describe()).isEmpty();
    }

    @Test
    void refusesAJavaOlderThan17NamingItsVersion(@TempDir Path tmp) throws Exception {
        Path jdk = Files.createDirectories(tmp.resolve("jdk8/bin"));
        Path fakeJava = jdk.resolve("java");
        Files.writeString(fakeJava, "#!/bin/sh\necho 'openjdk version \"1.8.0_402\"' >&2\nexit 0\n");
        Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));
        // no other Java on PATH to fall back to
        Run r = run(Map.of("JAVA_HOME", tmp.resolve("jdk8").toString(), "PATH", toolsWithout(tmp, "java").toString()), tmp,
                "/bin/sh", LAUNCHER.toString(), "--help");
        assertThat(r.code()).as(r.describe()).isEqualTo(1);
        assertThat(r.err()).as(r.describe()).contains("is version 1.8.0_402").contains("Java 17 or newer").contains("none is on PATH");
    }

    /** A JDK home whose {@code release} file says {@code version} and whose java only echoes how it was run. */
    private static Path fakeJdk(Path tmp, String name, String version) throws IOException {
        Path home = Files.createDirectories(tmp.resolve(name));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"ran " + name + " $*\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    /** The Java 17+ that runs these tests, alone on a PATH with the shell's tools. */
    private static String pathWithThisJava(Path tmp) throws IOException {
        Path bin = toolsWithout(tmp, "java");
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        return bin.toString();
    }

    @Test
    void aJavaHomeOlderThan17GivesWayToTheJavaOnPathAndDebugSaysWhich(@TempDir Path tmp) throws Exception {
        Path old = fakeJdk(tmp, "jdk11", "11.0.2");
        String path = pathWithThisJava(tmp);
        Run r = run(Map.of("JAVA_HOME", old.toString(), "PATH", path), tmp, "/bin/sh", LAUNCHER.toString(), "--version");
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.out()).as(r.describe()).startsWith("kubectl-stsresize ").doesNotContain("ran jdk11");
        assertThat(r.err()).as("without --debug the launcher says nothing: " + r.describe()).isEmpty();

        Run debug = run(Map.of("JAVA_HOME", old.toString(), "PATH", path), tmp, "/bin/sh", LAUNCHER.toString(),
                "plan", "--debug", "-f", Path.of("examples/manifest.yaml").toAbsolutePath().toString(),
                "--live", Path.of("examples/live-snapshot.yaml").toAbsolutePath().toString());
        assertThat(debug.err()).as(debug.describe())
                .contains("debug: Java " + Runtime.version().toString().replaceAll("\\+.*", ""))
                .contains("at " + path + "/java (from PATH; not JAVA_HOME's: the Java at " + old + "/bin/java (JAVA_HOME) is version 11.0.2)");
        assertThat(debug.out()).as(debug.describe()).doesNotContain("ran jdk11").contains("postgres");
    }

    @Test
    void stsresizeJavaNamesTheJavaToRunOverJavaHomeAndPath(@TempDir Path tmp) throws Exception {
        Path chosen = fakeJdk(tmp, "jdk25", "25");
        Map<String, String> env = Map.of("STSRESIZE_JAVA", chosen.toString(), "JAVA_HOME", System.getProperty("java.home"),
                "PATH", pathWithThisJava(tmp));
        Run home = run(env, tmp, "/bin/sh", LAUNCHER.toString(), "--version");
        assertThat(home.out()).as("a Java home: " + home.describe()).startsWith("ran jdk25 ").endsWith(" dev.stsresize.Main --version\n");
        Map<String, String> byProgram = new java.util.HashMap<>(env);
        byProgram.put("STSRESIZE_JAVA", chosen.resolve("bin/java").toString());
        Run program = run(byProgram, tmp, "/bin/sh", LAUNCHER.toString(), "--debug", "--version");
        assertThat(program.out()).as("its java: " + program.describe()).startsWith("ran jdk25 ");
        assertThat(program.err()).as(program.describe()).contains("debug: Java 25 at " + chosen.resolve("bin/java") + " (from STSRESIZE_JAVA)");
    }

    /** How the launcher runs a fake Java 17 for these arguments, with the kernel's huge-page setting read from {@code thp}. */
    private static Run optionsWith(Path tmp, String thp, String... args) throws Exception {
        Path jdk = fakeJdk(tmp, "jdk17", "17.0.9");
        Path setting = tmp.resolve("thp-enabled");
        Files.deleteIfExists(setting);
        if (thp != null) {
            Files.writeString(setting, thp + "\n");
        }
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        return run(Map.of("STSRESIZE_JAVA", jdk.toString(), "STSRESIZE_THP_SETTING", setting.toString(), "PATH", System.getenv("PATH")),
                tmp, cmd.toArray(String[]::new));
    }

    @Test
    void asksForTransparentHugePagesOnlyWhereTheKernelGivesThemOnRequest(@TempDir Path tmp) throws Exception {
        for (String offered : List.of("always [madvise] never", "[always] madvise never")) {
            Run plan = optionsWith(tmp, offered, "plan", "-f", "x.yaml");
            assertThat(plan.out()).as(offered + ": " + plan.describe())
                    .startsWith("ran jdk17 -XX:+UseParallelGC -XX:+UseTransparentHugePages -XX:TieredStopAtLevel=1 -cp ");
            Run simulate = optionsWith(tmp, offered, "simulate");
            assertThat(simulate.out()).as(offered + ": " + simulate.describe())
                    .startsWith("ran jdk17 -XX:+UseSerialGC -XX:+UseTransparentHugePages -cp ");
        }
        // "never", or no such file (macOS, or a kernel without them): the JVM would warn on stdout, so no flag
        for (String refused : new String[] {"always madvise [never]", null}) {
            Run plan = optionsWith(tmp, refused, "plan", "-f", "x.yaml");
            assertThat(plan.out()).as(refused + ": " + plan.describe())
                    .startsWith("ran jdk17 -XX:+UseParallelGC -XX:TieredStopAtLevel=1 -cp ").doesNotContain("HugePages");
        }
        Run debug = optionsWith(tmp, "always [madvise] never", "--debug", "version");
        assertThat(debug.err()).as(debug.describe())
                .contains("debug: JVM options: -XX:+UseParallelGC -XX:+UseTransparentHugePages -XX:TieredStopAtLevel=1\n");
    }

    @Test
    void realJavaRunsWithTheHugePageFlagOnThisKernelAndPrintsNoWarning(@TempDir Path tmp) throws Exception {
        // the flag the launcher chose for this machine, with this machine's JVM: stdout is only the version
        Run r = run(Map.of("PATH", pathWithThisJava(tmp)), tmp, "/bin/sh", LAUNCHER.toString(), "--debug", "version");
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.out()).as(r.describe()).startsWith("kubectl-stsresize ").doesNotContain("warning").doesNotContain("Huge");
        assertThat(r.err()).as(r.describe()).contains("debug: JVM options: ");
    }

    @Test
    void stsresizeJavaOlderThan17IsRefusedEvenWithAModernJavaOnPath(@TempDir Path tmp) throws Exception {
        Path old = fakeJdk(tmp, "jdk11", "11.0.2");
        Run r = run(Map.of("STSRESIZE_JAVA", old.toString(), "PATH", pathWithThisJava(tmp)), tmp, "/bin/sh", LAUNCHER.toString(), "--version");
        assertThat(r.code()).as(r.describe()).isEqualTo(1);
        assertThat(r.err()).as(r.describe()).contains("needs Java 17 or newer")
                .contains("the Java at " + old.resolve("bin/java") + " (STSRESIZE_JAVA) is version 11.0.2");
        assertThat(r.out()).as(r.describe()).isEmpty();
    }

    @Test
    void acceptsJavaHomeOfAModernJdk(@TempDir Path tmp) throws Exception {
        Path jdk = Files.createDirectories(tmp.resolve("jdk25/bin"));
        Path fakeJava = jdk.resolve("java");
        // a "java" that reports 25 and then records how it was run: the jar as classpath, its main class
        Files.writeString(fakeJava, "#!/bin/sh\nif [ \"$1\" = -version ]; then echo 'openjdk version \"25\" 2025-09-16' >&2; exit 0; fi\n"
                + "echo \"ran $*\"\n");
        Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run r = run(Map.of("JAVA_HOME", tmp.resolve("jdk25").toString()), tmp, LAUNCHER.toString(), "plan", "-f", "x.yaml");
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.out()).as(r.describe()).contains("-cp " + LAUNCHER.resolveSibling("kubectl-stsresize.jar") + " dev.stsresize.Main ")
                .endsWith("plan -f x.yaml\n");
    }

    private static Path toolsWithout(Path tmp, String missing) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("tools"));
        List<String> tools = new ArrayList<>(List.of("dirname", "readlink", "sed", "head", "cat", "pwd"));
        tools.remove(missing);
        for (String t : tools) {
            for (String d : List.of("/usr/bin", "/bin")) {
                Path p = Paths.get(d, t);
                if (Files.isExecutable(p)) {
                    Files.createSymbolicLink(bin.resolve(t), p);
                    break;
                }
            }
        }
        return bin;
    }
}
