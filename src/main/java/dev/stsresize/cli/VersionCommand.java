package dev.stsresize.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code kubectl stsresize version}: the version and the commit it was built from, with nothing loaded that it does not need. */
@Command(name = "version", mixinStandardHelpOptions = true,
        description = "Print the version of kubectl-stsresize and the commit it was built from.")
public final class VersionCommand extends BaseCommand {
    @Mixin OutputFormat.DocumentOption output;

    /** Its only flag is -o, which picocli checks. */
    @Override
    protected void validate() {}

    @Override
    protected int run() {
        ResultPrinter.version(Version.line(), document(), output.format, spec.commandLine().getOut());
        return ExitCodes.OK;
    }

    /** The stsresize/v1 Version document: the commit is "" when the build had no git repository. */
    static ObjectNode document() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "stsresize/v1").put("kind", "Version");
        o.put("version", Version.get()).put("commit", Version.commit()).put("modified", Version.modified());
        return o;
    }
}
