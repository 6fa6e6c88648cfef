package dev.stsresize.cli;

import dev.stsresize.UserError;
import dev.stsresize.manifest.ApiNames;
import dev.stsresize.manifest.ManifestEditor;
import dev.stsresize.manifest.ManifestFile;
import dev.stsresize.manifest.UnifiedDiff;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;

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
            "Raise the size of a StatefulSet's volumeClaimTemplates in a manifest file, and print its diff.",
            "Only the quantity changes (comments, order, quoting, anchors and line endings kept). Then plan or apply"
                    + " FILE as usual.",
        },
        footer = {"", "Example:", "  kubectl stsresize set-size -f k8s/db.yaml \\", "      shop/db data=20Gi wal=4Gi"})
public final class SetSizeCommand extends BaseCommand {
    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE",
            description = "The manifest file to edit (YAML or JSON; not stdin, not a directory).")
    String file;

    /** -n as every command takes it: the namespace of StatefulSets whose document names none, else the context's. */
    @Mixin ConnectionOptions connection;

    /** What set-size's dry runs can be: it sends nothing, so there is no server dry run. */
    enum DryRun { none, client }

    @Option(names = "--dry-run", paramLabel = "none|client", defaultValue = "none", arity = "0..1", fallbackValue = "client",
            description = "client: print the diff without writing the file (--dry-run alone says the same, as kubectl's did);"
                    + " none: write it. set-size sends nothing, so there is no server dry run. Default: ${DEFAULT-VALUE}.")
    DryRun dryRun;

    @Parameters(index = "0", paramLabel = "NAMESPACE/NAME", description = "The StatefulSet (NAME alone: in -n's namespace).")
    String target;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "TEMPLATE=SIZE",
            description = "A volumeClaimTemplate's name and its new, larger size, e.g. data=20Gi. Repeatable.")
    List<String> assignments = new ArrayList<>();

    private final Environment environment;

    public SetSizeCommand(Environment environment) {
        this.environment = environment;
    }

    /** The StatefulSet named, as kube-apiserver would name it, and the sizes parsed; the file is read only in run. */
    private String ns;
    private String name;
    private final Map<String, String> sizes = new LinkedHashMap<>();

    @Override
    protected void validate() {
        if (file.equals("-")) {
            throw new UserError("set-size edits a file in place and cannot edit stdin: save the manifest to a file and pass -f FILE.");
        }
        connection.validate(spec);
        if (connection.allNamespaces) {
            throw invalid("set-size edits one StatefulSet: name it NAMESPACE/NAME (or NAME in -n's namespace), without -A.");
        }
        ns = target.contains("/") ? target.substring(0, target.indexOf('/')) : null;
        name = target.contains("/") ? target.substring(target.indexOf('/') + 1) : target;
        String problem = ns == null ? "" : ApiNames.namespaceProblem(ns, "NAMESPACE");
        if (!problem.isEmpty() || name.isEmpty()) {
            throw new ParameterException(spec.commandLine(), problem.isEmpty() ? "NAMESPACE/NAME has no name: \"" + target + "\"." : problem);
        }
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0 || eq == a.length() - 1 || sizes.put(a.substring(0, eq), a.substring(eq + 1)) != null) {
                throw new ParameterException(spec.commandLine(), "TEMPLATE=SIZE takes a template's name and a size, once per"
                        + " template (e.g. data=20Gi), not \"" + a + "\".");
            }
        }
    }

    @Override
    protected int run() {
        String namespace = connection.namespaceWithoutConnecting(environment, spec.commandLine().getErr());
        String before = ManifestFile.read(file);
        String after = new ManifestEditor(file, before, namespace).setSizes(ns == null ? namespace : ns, name, sizes);
        PrintWriter out = spec.commandLine().getOut();
        out.print(UnifiedDiff.of(file, before, after));
        out.flush();
        PrintWriter err = spec.commandLine().getErr();
        if (dryRun == DryRun.client) {
            err.println(file + " not written (--dry-run=client).");
        } else {
            ManifestFile.write(file, after);
            err.println(file + " written. Next: kubectl stsresize plan -f " + file + " (or apply).");
        }
        err.flush();
        return ExitCodes.OK;
    }
}
