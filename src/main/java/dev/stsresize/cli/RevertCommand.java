package dev.stsresize.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.converge.Revert;
import dev.stsresize.manifest.ApiNames;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kubectl stsresize revert NS/NAME}: the way back from a resize that failed. Each claim of the StatefulSet
 * whose resize has not completed gets back the request it had before the run, where the server accepts it
 * ({@link Revert}); the patches are dry-run first, shown, and sent once the operator says yes ({@code --yes}
 * without a terminal); then the run's Lease holder and record are freed. A server that refuses is one
 * {@code error:} paragraph with what remains, exit 1, nothing written.
 */
@Command(
        name = "revert",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"Give back the requests a failed resize raised: each claim whose capacity is still below its request"
                + " goes back to its size before the run, where the server allows it (Kubernetes v1.32+ with"
                + " RecoverVolumeExpansionFailure); the run's Lease and record are freed.",
            "",
            "Exit status: 0 reverted or nothing to revert; 1 refused by the server, or nothing was written."},
        footer = {"", "Examples:", "  kubectl stsresize revert shop/db --dry-run=server", "  kubectl stsresize revert shop/db"})
public final class RevertCommand extends BaseCommand {
    @Mixin ConnectionOptions connection;

    @Parameters(paramLabel = "NAMESPACE/NAME", arity = "1", description = "The StatefulSet whose claims' requests go back.")
    String target;

    @Option(names = {"-y", "--yes"}, description = "Do not ask before lowering the requests.")
    boolean yes;

    @Option(names = "--dry-run", paramLabel = "none|server", defaultValue = "none",
            description = "server: send every patch as a server dry run and write nothing. Default: ${DEFAULT-VALUE}.")
    String dryRun;

    @Mixin OutputFormat.DocumentOption output;

    private final Environment environment;
    private final Supplier<Optional<Prompter>> prompter;

    public RevertCommand(Environment environment, Supplier<Optional<Prompter>> prompter) {
        this.environment = environment;
        this.prompter = prompter;
    }

    @Override
    protected void validate() {
        connection.validate(spec);
        if (!List.of("none", "server").contains(dryRun)) {
            throw invalid("--dry-run takes none or server, not \"" + dryRun + "\" (a client-side dry run proves nothing the server decides).");
        }
        String[] p = target.split("/", 2);
        checkTarget(p.length == 2 ? p[0] : "default", p.length == 2 ? p[1] : p[0]);
    }

    /** A NAMESPACE/NAME kube-apiserver would refuse is refused before any request. */
    private void checkTarget(String namespace, String name) {
        String where = "the StatefulSet \"" + target + "\" given to revert";
        String problem = ApiNames.namespaceProblem(namespace, where);
        if (!problem.isEmpty()) {
            throw new UserError(problem);
        }
        List<String> errors = ApiNames.subdomainErrors(name);
        if (!errors.isEmpty()) {
            throw new UserError(where + ": the name is not one kube-apiserver accepts (" + ApiNames.invalid("metadata.name", name, errors)
                    + "). Nothing was sent. Pass NAMESPACE/NAME of a StatefulSet, e.g. shop/db.");
        }
    }

    @Override
    protected int run() {
        PrintWriter out = out();
        PrintWriter err = err();
        ClusterConnection conn = connection.connect(environment, err);
        String[] p = target.split("/", 2);
        String namespace = p.length == 2 ? p[0] : conn.defaultNamespace();
        String name = p.length == 2 ? p[1] : p[0];
        checkTarget(namespace, name);
        err.println(conn.target());
        Revert revert = new Revert(conn.cluster(), environment.journal(), Clock.systemUTC());
        Revert.Planned planned = revert.plan(namespace, name);
        if (!planned.problem().isEmpty()) {
            throw new UserError(planned.problem());
        }
        boolean dry = dryRun.equals("server");
        if (planned.lowering().isEmpty()) {
            return done(new Revert.Done(planned, false, "", ""), dry, out, "nothing to revert for StatefulSet " + namespace + "/" + name
                    + ": no claim has a raised request this plugin recorded. Nothing was written");
        }
        String refused = revert.dryRun(planned);
        if (!refused.isEmpty()) {
            throw new UserError(refused);
        }
        if (dry) {
            return done(new Revert.Done(planned, false, "", ""), true, out, "server dry run: every patch accepted; nothing was written"
                    + " (run again without --dry-run=server to lower the requests)");
        }
        if (!yes) {
            ask(planned, err);
        }
        Revert.Done done = revert.apply(planned);
        if (!done.refusal().isEmpty()) {
            throw new UserError(done.refusal());
        }
        return done(done, false, out, "reverted StatefulSet " + namespace + "/" + name + (done.released().isEmpty() ? "" : "; "
                + done.released()));
    }

    /** What would be lowered, shown, then the operator's yes; no terminal without --yes is a refusal with nothing written. */
    private void ask(Revert.Planned planned, PrintWriter err) {
        Optional<Prompter> asker = prompter.get();
        if (asker.isEmpty()) {
            throw new UserError("revert would lower the requests of " + planned.lowering().size() + " claim(s) of StatefulSet "
                    + planned.namespace() + "/" + planned.name() + " and there is no terminal to ask on: pass --yes to allow it, or"
                    + " --dry-run=server to only check. Nothing was written.");
        }
        for (Revert.ClaimStep c : planned.lowering()) {
            err.println("  claim " + c.claim() + ": " + c.said());
        }
        err.flush();
        String answer = asker.get().ask("Lower these requests of " + planned.namespace() + "/" + planned.name() + "? [y/N] ");
        if (answer == null || !answer.trim().equalsIgnoreCase("y") && !answer.trim().equalsIgnoreCase("yes")) {
            throw new UserError("the operator declined; nothing was written");
        }
    }

    /** The result per claim: lines, or the stsresize/v1 Revert document. */
    private int done(Revert.Done done, boolean dry, PrintWriter out, String summary) {
        Revert.Planned planned = done.planned();
        if (output.format == OutputFormat.Document.table) {
            for (Revert.ClaimStep c : planned.claims()) {
                String verb = !c.lowers() ? "" : dry ? "would lower: " : done.written() ? "lowered: " : "";
                out.println("claim " + planned.namespace() + "/" + c.claim() + ": " + verb + c.said());
            }
            out.println(summary);
            out.flush();
            return ExitCodes.OK;
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode doc = f.objectNode().put("apiVersion", "stsresize/v1").put("kind", "Revert");
        doc.put("namespace", planned.namespace()).put("name", planned.name()).put("dryRun", dry).put("written", done.written());
        ArrayNode claims = doc.putArray("claims");
        for (Revert.ClaimStep c : planned.claims()) {
            claims.addObject().put("name", c.claim()).put("request", c.request()).put("capacity", c.capacity())
                    .put("sizeBefore", c.sizeBefore()).put("target", c.target()).put("action", c.lowers() ? "lower" : "left-alone")
                    .put("detail", c.said());
        }
        doc.put("released", done.released()).put("summary", summary);
        ResultPrinter.document(doc, output.format, out);
        return ExitCodes.OK;
    }
}
