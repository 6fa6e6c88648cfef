package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cli.Cli;
import dev.stsresize.cli.Prompter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** Runs the real command line in-process against a harness's cluster, with its kubeconfig and journal. */
final class Commands {
    record Run(int code, String out, String err) {
        String describe() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private Commands() {}

    static Path manifest(Path dir, List<ObjectNode> objects) {
        try {
            StringBuilder b = new StringBuilder();
            for (ObjectNode o : objects) {
                b.append("---\n").append(Harness.YAML.writeValueAsString(o).replaceFirst("^---\n", ""));
            }
            Files.createDirectories(dir);
            Path f = Files.createTempFile(dir, "manifest", ".yaml");
            Files.writeString(f, b.toString());
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Run run(Harness h, Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint, String... args) {
        return run(h, prompter, checkpoint, new StopRequest(), args);
    }

    /** With the stop request the command's signal handlers would set: the test sets it instead. */
    static Run run(Harness h, Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint, StopRequest stop, String... args) {
        return run(h, Map.of(), prompter, checkpoint, stop, args);
    }

    /** With variables added to the harness's: {@code USER=bob} is another operator (its Lease holder differs). */
    static Run run(Harness h, Map<String, String> variables, Supplier<Optional<Prompter>> prompter, Checkpoint checkpoint,
            StopRequest stop, String... args) {
        Map<String, String> env = new java.util.HashMap<>(h.env());
        env.putAll(variables);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--kubeconfig");
        all.add(h.kubeconfig().toString());
        int code = new Cli(new PrintWriter(out), new PrintWriter(err), new ByteArrayInputStream(new byte[0]), env, false,
                prompter, checkpoint, stop).run(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    static Run run(Harness h, String... args) {
        return run(h, Optional::empty, Checkpoint.NONE, args);
    }
}
