package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.sim.SimCluster;
import dev.stsresize.testkit.TestObjects;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Every option and argument of every command, given a bad value, is refused before anything happens: exit 1, one
 * {@code error:} paragraph on stderr, nothing on stdout, and no request to the cluster — the simulated cluster's
 * request log stays as it was. The table below must name every option: one that takes any value says why.
 */
class EveryOptionRefusesABadValueTest {
    /** A manifest good for every command: only the option under test is bad. */
    static final String MANIFEST = TestObjects.db("default", "standard", "2Gi", "nginx");

    /** A bad value for an option in every command that has it, keyed by its longest name. */
    static final Map<String, String> BAD = new LinkedHashMap<>();
    /** A bad value for one command's option or argument ("command --name", "command LABEL"), where it differs. */
    static final Map<String, String> BAD_IN = new LinkedHashMap<>();
    /** Options whose every value is a good one here: only the server can judge them. */
    static final Map<String, String> ANY_VALUE = new LinkedHashMap<>();

    static {
        BAD.put("--filename", "no-such-manifest.yaml");
        BAD.put("--live", "no-such-snapshot.yaml");
        BAD.put("--kubeconfig", "no-such-kubeconfig");
        BAD.put("--context", "no-such-context");
        BAD.put("--cluster", "no-such-cluster");
        BAD.put("--user", "no-such-user");
        BAD.put("--server", "http://[::1");
        BAD.put("--certificate-authority", "no-such-ca.crt");
        BAD.put("--client-certificate", "no-such-client.crt");
        BAD.put("--client-key", "no-such-client.key");
        BAD.put("--insecure-skip-tls-verify", "maybe");
        BAD.put("--namespace", "Bad_Namespace");
        BAD.put("--request-timeout", "PT10M");
        BAD.put("--v", "six");
        BAD.put("--output", "xml");
        BAD.put("--color", "sometimes");
        BAD.put("--headroom", "150");
        BAD.put("--days", "0");
        BAD.put("--prometheus", "ftp://prometheus:9090");
        BAD.put("--usage-timeout", "0s");
        BAD.put("--dry-run", "client");
        BAD.put("--wait-for-resize", "maybe");
        BAD.put("--field-manager", "m".repeat(129));
        BAD.put("--timeout", "0s");
        BAD.put("--fs-timeout", "0s");
        BAD.put("--speed", "slow");
        BAD.put("--scenario", "shrink");
        BAD.put("--copy-class", "Local_Path");
        BAD.put("--copy-image", "busybox 1.36");
        BAD_IN.put("resume NAMESPACE/NAME", "default/Bad_Name");
        BAD_IN.put("revert NAMESPACE/NAME", "default/Bad_Name");
        BAD_IN.put("set-size NAMESPACE/NAME", "default/");
        BAD_IN.put("set-size TEMPLATE=SIZE", "data");
        BAD_IN.put("set-size --filename", "-");
        BAD_IN.put("set-size --dry-run", "server"); // set-size sends nothing: none or client
        BAD_IN.put("render-job --unit", "Bad Unit");
        BAD_IN.put("render-job --image", "busybox:latest");
        BAD_IN.put("render-job --label", "team");
        BAD_IN.put("render-job --api-server-cidr", "10.0.0.1");
        BAD_IN.put("render-job --api-server-port", "0");
        BAD_IN.put("render-job --kubernetes-version", "one.32");
        BAD_IN.put("simulate --state", "no-such-state.yaml");
        BAD_IN.put("simulate --kubeconfig-out", "/no-such-folder/kubeconfig");
        BAD_IN.put("simulate --port", "70000");
        BAD_IN.put("simulate --log", "/no-such-folder/requests.log");
        BAD_IN.put("simulate --save", "/no-such-folder/state.yaml");
        BAD_IN.put("simulate --faults", "no-such-faults.yaml");
        BAD_IN.put("demo --dir", "@file"); // a file where a folder is wanted
        BAD_IN.put("completion SHELL", "tcsh");
        ANY_VALUE.put("--token", "a token is the API server's to accept or not");
        ANY_VALUE.put("--tls-server-name", "any name; the server's certificate is checked against it at the handshake");
        ANY_VALUE.put("--as", "any user name; impersonation is the API server's to allow");
        ANY_VALUE.put("--as-group", "any group name; impersonation is the API server's to allow");
        ANY_VALUE.put("--as-uid", "any UID; impersonation is the API server's to allow");
        ANY_VALUE.put("render-job --image-pull-secret", "a ServiceAccount's imagePullSecrets name is not validated by kube-apiserver");
    }

    static SimCluster sim;
    static Path dir;

    @BeforeAll
    static void start(@TempDir Path tmp) throws IOException {
        dir = tmp;
        sim = SimCluster.start();
        sim.writeKubeconfig(dir.resolve("kubeconfig"));
        Files.writeString(dir.resolve("manifest.yaml"), MANIFEST);
        Files.writeString(dir.resolve("@file"), "");
        Files.createDirectories(dir.resolve("state"));
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    /** Arguments that make each command otherwise good: it would go on to the cluster (or serve, or write). */
    static Map<String, String> baseOptions(String command) {
        Map<String, String> o = new LinkedHashMap<>();
        String manifest = dir.resolve("manifest.yaml").toString();
        switch (command) {
            case "plan", "ui" -> o.put("--filename", manifest);
            case "apply" -> {
                o.put("--filename", manifest);
                o.put("--yes", null);
            }
            case "resume", "revert" -> o.put("--yes", null);
            case "render-job" -> {
                o.put("--filename", manifest);
                o.put("--kubernetes-version", "1.32");
            }
            case "set-size" -> o.put("--filename", manifest);
            case "simulate" -> o.put("--kubeconfig-out", dir.resolve("sim-kubeconfig").toString());
            case "demo" -> {
                o.put("--apply", null);
                o.put("--speed", "fast");
                o.put("--dir", dir.resolve("demo").toString());
            }
            default -> { }
        }
        return o;
    }

    static Map<String, String> basePositionals(String command) {
        Map<String, String> p = new LinkedHashMap<>();
        switch (command) {
            case "resume", "revert" -> p.put("NAMESPACE/NAME", "default/db");
            case "set-size" -> {
                p.put("NAMESPACE/NAME", "default/db");
                p.put("TEMPLATE=SIZE", "data=3Gi");
            }
            case "completion" -> p.put("SHELL", "bash");
            default -> { }
        }
        return p;
    }

    /** One case per option or argument that can be given a bad value. */
    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        CommandContractTest.tree().getSubcommands().forEach((command, sub) -> {
            for (OptionSpec o : sub.getCommandSpec().options()) {
                if (o.usageHelp() || o.versionHelp() || o.arity().max() == 0) {
                    continue; // a flag without a value has no bad value
                }
                String bad = badValue(command, o.longestName());
                if (bad != null) {
                    cases.add(Arguments.of(command, o.longestName(), bad));
                }
            }
            for (PositionalParamSpec p : sub.getCommandSpec().positionalParameters()) {
                String bad = BAD_IN.get(command + " " + p.paramLabel());
                if (bad != null) {
                    cases.add(Arguments.of(command, p.paramLabel(), bad));
                }
            }
        });
        return cases.stream();
    }

    static String badValue(String command, String name) {
        if (ANY_VALUE.containsKey(command + " " + name)) {
            return null;
        }
        String bad = BAD_IN.getOrDefault(command + " " + name, BAD.get(name));
        return bad != null && bad.startsWith("@") ? dir.resolve(bad).toString() : bad;
    }

    @Test
    void everyOptionAndArgumentIsInTheTable() {
        List<String> missing = new ArrayList<>();
        CommandContractTest.tree().getSubcommands().forEach((command, sub) -> {
            for (OptionSpec o : sub.getCommandSpec().options()) {
                String name = o.longestName();
                if (!o.usageHelp() && !o.versionHelp() && o.arity().max() > 0 && badValue(command, name) == null
                        && !ANY_VALUE.containsKey(name) && !ANY_VALUE.containsKey(command + " " + name)) {
                    missing.add(command + " " + name);
                }
            }
            for (PositionalParamSpec p : sub.getCommandSpec().positionalParameters()) {
                if (!BAD_IN.containsKey(command + " " + p.paramLabel())) {
                    missing.add(command + " " + p.paramLabel());
                }
            }
        });
        assertThat(missing).as("options with neither a bad value nor a reason why every value is good").isEmpty();
    }

    @ParameterizedTest(name = "{0} {1}={2}")
    @MethodSource("cases")
    void aBadValueIsOneErrorBeforeAnyRequest(String command, String option, String bad) {
        Map<String, String> options = baseOptions(command);
        Map<String, String> positionals = basePositionals(command);
        if (COPY_VALUES.contains(option)) {
            options.put("--copy", null); // so that the value is what is refused, not the missing opt-in
        }
        if (option.startsWith("-")) {
            options.put(option, bad);
        } else {
            positionals.put(option, bad);
        }
        List<String> args = new ArrayList<>(List.of(command));
        options.forEach((name, value) -> args.add(value == null ? name : name + "=" + value));
        args.addAll(positionals.values());

        refusedBeforeAnyRequest(args);
    }

    /** The options that only go with {@code --copy}. */
    static final List<String> COPY_VALUES = List.of("--copy-class", "--copy-image");

    /** The copy's values without the opt-in are refused naming --copy, by every command that has them. */
    @ParameterizedTest(name = "{0} {1} without --copy")
    @MethodSource("copyValuesWithoutCopy")
    void aCopyValueWithoutCopyIsRefusedNamingIt(String command, String option) {
        List<String> args = new ArrayList<>(List.of(command));
        baseOptions(command).forEach((name, value) -> args.add(value == null ? name : name + "=" + value));
        args.add(option + "=" + (option.equals("--copy-class") ? "bigger" : "busybox:1.37.0"));
        assertThat(refusedBeforeAnyRequest(args)).contains("error: " + option + " is for the copy migration, which only --copy turns on:"
                + " add --copy, or leave " + option + " out.");
    }

    static Stream<Arguments> copyValuesWithoutCopy() {
        List<Arguments> out = new ArrayList<>();
        CommandContractTest.tree().getSubcommands().forEach((command, sub) -> {
            if (sub.getCommandSpec().findOption("--copy-class") != null) { // render-job's --copy is only refused
                COPY_VALUES.forEach(o -> out.add(Arguments.of(command, o)));
            }
        });
        assertThat(out).extracting(a -> a.get()[0]).contains("plan", "apply", "ui");
        return out.stream();
    }

    /** Every command that takes both -n and -A refuses them together, in the one check they share. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsWithNamespaceAndAllNamespaces")
    void minusNWithMinusAIsRefusedByEveryCommand(String command) {
        List<String> args = new ArrayList<>(List.of(command));
        baseOptions(command).forEach((name, value) -> args.add(value == null ? name : name + "=" + value));
        args.addAll(List.of("-n", "default", "-A"));
        args.addAll(basePositionals(command).values());
        assertThat(refusedBeforeAnyRequest(args)).contains("-n and -A cannot be used together");
    }

    static Stream<String> commandsWithNamespaceAndAllNamespaces() {
        List<String> commands = new ArrayList<>();
        CommandContractTest.tree().getSubcommands().forEach((command, sub) -> {
            if (sub.getCommandSpec().findOption("--namespace") != null && sub.getCommandSpec().findOption("--all-namespaces") != null) {
                commands.add(command);
            }
        });
        assertThat(commands).contains("plan", "apply", "resume", "usage", "ui");
        return commands.stream();
    }

    /** Runs the command line: exit 1, one {@code error:} paragraph, nothing on stdout, no request. Returns stderr. */
    private static String refusedBeforeAnyRequest(List<String> args) {
        int requestsBefore = sim.requests().size();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env = Map.of("KUBECONFIG", dir.resolve("kubeconfig").toString(),
                "XDG_STATE_HOME", dir.resolve("state").toString());
        // a guard against a command that, taking the value, serves until interrupted (simulate, demo): not a measure
        int code = Assertions.assertTimeoutPreemptively(Duration.ofMinutes(2), () -> new Cli(new PrintWriter(out), new PrintWriter(err),
                new ByteArrayInputStream(new byte[0]), env, false).run(args.toArray(new String[0])));

        String said = err.toString();
        assertThat(code).as("exit status of %s; stderr:%n%s", args, said).isEqualTo(1);
        assertThat(said.lines().filter(l -> l.startsWith("error: ")).count()).as("one error paragraph:%n%s", said).isEqualTo(1);
        assertThat(said).as("a typo is no bug").doesNotContain("This is a bug").doesNotContain("Exception");
        assertThat(said.lines().count()).as("the paragraph and at most the help hint:%n%s", said).isLessThanOrEqualTo(2);
        assertThat(out.toString()).as("nothing printed as a result").isEmpty();
        assertThat(sim.requests().subList(requestsBefore, sim.requests().size())).as("requests sent for %s", args).isEmpty();
        return said;
    }

    /** The two typos the operator path met, word for word. */
    @Test
    void theTyposOfTheOperatorPathSayWhatIsAccepted() {
        StringWriter err = new StringWriter();
        Map<String, String> env = Map.of("KUBECONFIG", dir.resolve("kubeconfig").toString(), "XDG_STATE_HOME", dir.resolve("state").toString());
        Cli cli = new Cli(new PrintWriter(new StringWriter()), new PrintWriter(err), new ByteArrayInputStream(new byte[0]), env, false);

        assertThat(cli.run("resume", "-o", "xml", "default/db")).isEqualTo(1);
        assertThat(cli.run("apply", "-f", dir.resolve("manifest.yaml").toString(), "--timeout", "PT10M", "--yes")).isEqualTo(1);
        assertThat(err.toString()).contains("error: --output takes table, json or yaml, not \"xml\".")
                .contains("error: --timeout takes a duration as kubectl writes it, like 30s, 10m0s or 1h30m0s, not \"PT10M\".");
    }
}
