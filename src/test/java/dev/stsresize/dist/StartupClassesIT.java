package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.testkit.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Shipping the simulated cluster in the jar costs the commands that do not start it nothing: {@code --help}
 * and an offline {@code plan} load no class of the kube-sim module (the JVM's own class-load log says so).
 * And {@code --help} and {@code version}, answered by {@code cli.QuickAnswers}, load no library at all.
 */
class StartupClassesIT {
    private static final Path JAR = Path.of("target/kubectl-stsresize.jar").toAbsolutePath();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--help", "plan -f examples/manifest.yaml --live examples/live-snapshot.yaml"})
    void loadsNoSimulatorClass(String args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "-Xshare:off", "-Xlog:class+load=info", "-jar", JAR.toString()));
        cmd.addAll(List.of(args.split(" ")));
        Processes.Result r = Processes.run(Map.of(), Path.of("").toAbsolutePath(), Duration.ofSeconds(60), cmd.toArray(new String[0]));
        assertThat(r.out()).as("the class-load log of %s (exit %d)", args, r.code()).contains("dev.stsresize.Main");
        assertThat(r.out().lines().filter(l -> l.contains(" dev.stsresize.sim."))).as("simulator classes loaded by " + args).isEmpty();
    }

    /**
     * {@code --help} and {@code version} load no class of picocli, jline, lanterna, client-java or Jackson, and
     * no hidden class (lambdas, lambda forms, indy string concatenation: JDK 17's dynamic archive keeps only
     * some of them, so each costs every start). As the launcher runs them: {@code -cp}, stdout not a terminal.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--help", "version"})
    void shortAnswersLoadNoLibraryAndNoHiddenClass(String arg) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Processes.Result r = Processes.run(Map.of(), Path.of("").toAbsolutePath(), Duration.ofSeconds(60),
                java, "-Xshare:off", "-Xlog:class+load=info", "-cp", JAR.toString(), "dev.stsresize.Main", arg);
        assertThat(r.code()).as("exit of %s", arg).isZero();
        assertThat(r.out()).contains("dev.stsresize.Main");
        Pattern offending = Pattern.compile(
                "\\[class,load\\] (picocli\\.|org\\.jline\\.|com\\.googlecode\\.lanterna\\.|io\\.kubernetes\\.|com\\.fasterxml\\.|\\S+/0x)");
        assertThat(r.out().lines().filter(l -> offending.matcher(l).find()))
                .as("classes %s should not load (libraries, hidden classes)", arg).isEmpty();
    }

    /**
     * On a terminal too (a pty of script(1), 100 columns): the launcher measures the width and {@code --help}
     * prints the build's coloured text of that width, loading no picocli class; the same bytes as picocli
     * prints when it measures the terminal itself ({@code java ... Main --help} without the launcher).
     */
    @org.junit.jupiter.api.Test
    void helpOnATerminalLoadsNoPicocliAndPrintsWhatPicocliPrints() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(new java.io.File("/usr/bin/script").canExecute(), "script(1) is not installed");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String launcher = Path.of("target/kubectl-stsresize").toAbsolutePath().toString();
        Map<String, String> env = Map.of("JAVA_HOME", System.getProperty("java.home"), "STSRESIZE_CDS", "0",
                "STSRESIZE_JAVA_OPTS", "-Xshare:off -Xlog:class+load=info:file=" + Path.of("target/help-tty-classes.log").toAbsolutePath());
        String viaLauncher = onTerminal(env, launcher + " --help");
        String viaPicocli = onTerminal(Map.of(), java + " -cp " + JAR + " dev.stsresize.Main --help");
        assertThat(viaLauncher).as("coloured").contains("\u001B[").isEqualTo(viaPicocli);
        List<String> log = Files.readAllLines(Path.of("target/help-tty-classes.log"));
        assertThat(log).as("the class-load log").anyMatch(l -> l.contains("dev.stsresize.cli.QuickAnswers"));
        assertThat(log).as("picocli classes on a terminal").noneMatch(l -> l.contains(" picocli."));
    }

    /** What {@code command} prints on a 100-column pty, without script(1)'s own first and last lines. */
    private static String onTerminal(Map<String, String> env, String command) throws Exception {
        Path typescript = Files.createTempFile("help-tty", ".txt");
        try {
            Processes.Result r = Processes.run(env, Path.of("").toAbsolutePath(), Duration.ofSeconds(60),
                    "script", "-q", "-e", "-c", "stty cols 100; " + command, typescript.toString());
            assertThat(r.code()).as("exit of %s: %s", command, r.err()).isZero();
            List<String> lines = Files.readAllLines(typescript);
            return String.join("\n", lines.subList(1, lines.size() - 1));
        } finally {
            Files.deleteIfExists(typescript);
        }
    }
}
