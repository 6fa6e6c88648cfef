package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.testkit.Processes;
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
}
