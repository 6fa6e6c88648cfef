package dev.stsresize.cli;

import dev.stsresize.UserError;
import dev.stsresize.manifest.ApiNames;
import dev.stsresize.manifest.ManifestEditor;
import dev.stsresize.manifest.UnifiedDiff;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kubectl stsresize set-size}: raises volumeClaimTemplates' sizes in the operator's manifest file, changing
 * only those characters, and prints the file's diff. Offline: talks to no cluster; the usual plan/apply follows.
 */
@Command(
        name = "set-size",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Raise the size of a StatefulSet's volumeClaimTemplates in FILE, changing only the quantity (comments, order,",
            "quoting, anchors and line endings kept), and print the file's diff. Then plan or apply FILE as usual.",
        },
        footer = {"", "Example:", "  kubectl stsresize set-size -f k8s/db.yaml shop/db data=20Gi wal=4Gi"})
public final class SetSizeCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE",
            description = "The manifest file to edit (YAML or JSON; not stdin, not a directory).")
    String file;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NS", defaultValue = "default",
            description = "The namespace of StatefulSets whose document names none. Default: ${DEFAULT-VALUE}.")
    String namespace;

    @Option(names = "--dry-run", description = "Print the diff without writing the file.")
    boolean dryRun;

    @Parameters(index = "0", paramLabel = "NAMESPACE/NAME", description = "The StatefulSet (NAME alone: in -n's namespace).")
    String target;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "TEMPLATE=SIZE",
            description = "A volumeClaimTemplate's name and its new, larger size, e.g. data=20Gi. Repeatable.")
    List<String> assignments = new ArrayList<>();

    @Mixin DebugOption debug;

    @Override
    public Integer call() {
        if (file.equals("-")) {
            throw new UserError("set-size edits a file in place and cannot edit stdin: save the manifest to a file and pass -f FILE.");
        }
        String ns = target.contains("/") ? target.substring(0, target.indexOf('/')) : namespace;
        String name = target.contains("/") ? target.substring(target.indexOf('/') + 1) : target;
        String problem = ApiNames.namespaceProblem(ns, "NAMESPACE");
        if (!problem.isEmpty() || name.isEmpty()) {
            throw new ParameterException(spec.commandLine(), problem.isEmpty() ? "NAMESPACE/NAME has no name: \"" + target + "\"." : problem);
        }
        Map<String, String> sizes = new LinkedHashMap<>();
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0 || eq == a.length() - 1 || sizes.put(a.substring(0, eq), a.substring(eq + 1)) != null) {
                throw new ParameterException(spec.commandLine(), "TEMPLATE=SIZE takes a template's name and a size, once per"
                        + " template (e.g. data=20Gi), not \"" + a + "\".");
            }
        }
        Path path = Path.of(file);
        String before = read(path);
        String after = new ManifestEditor(file, before, namespace).setSizes(ns, name, sizes);
        PrintWriter out = spec.commandLine().getOut();
        out.print(UnifiedDiff.of(file, before, after));
        out.flush();
        PrintWriter err = spec.commandLine().getErr();
        if (dryRun) {
            err.println(file + " not written (--dry-run).");
        } else {
            write(path, after);
            err.println(file + " written. Next: kubectl stsresize plan -f " + file + " (or apply).");
        }
        err.flush();
        return ExitCodes.OK;
    }

    /** Strict UTF-8: a file in another encoding is refused rather than rewritten with replacement characters. */
    private String read(Path path) {
        if (Files.isDirectory(path)) {
            throw new UserError(file + " is a directory; set-size edits one file: pass the file that holds the StatefulSet.");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(Files.readAllBytes(path))).toString();
        } catch (CharacterCodingException e) {
            throw new UserError(file + " is not UTF-8 text, so it is not edited; convert it (iconv -t utf-8) first.", e);
        } catch (IOException e) {
            throw new UserError("cannot read " + file + ": " + e.getMessage() + ". Check that it exists and is readable.", e);
        }
    }

    /** In place (same inode: permissions, owner and links kept). */
    private void write(Path path, String text) {
        try {
            Files.writeString(path, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("cannot write " + file + ": " + e.getMessage() + "; it is unchanged only if the error came before"
                    + " writing. Check its permissions.", e);
        }
    }
}
