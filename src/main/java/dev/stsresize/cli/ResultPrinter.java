package dev.stsresize.cli;

import dev.stsresize.converge.Outcome;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.render.DocumentWriter;
import dev.stsresize.render.ResultDocument;
import java.io.PrintWriter;
import java.util.List;

/** The end of {@code apply} and {@code resume}: one line per StatefulSet (or the Result document), and the exit status. */
final class ResultPrinter {
    private ResultPrinter() {}

    static int print(List<StatefulSetResult> results, String output, PrintWriter out) {
        if (output.equals("json")) {
            out.print(DocumentWriter.json(ResultDocument.of(results)));
        } else {
            for (StatefulSetResult r : results) {
                out.println(r.namespace() + "/" + r.name() + ": " + r.outcome().label()
                        + (r.reason().isEmpty() ? "" : " (" + r.reason() + ")") + " - " + r.detail());
                r.warnings().forEach(w -> out.println("  warning: " + w));
            }
        }
        out.flush();
        return exitCode(results);
    }

    static int exitCode(List<StatefulSetResult> results) {
        if (results.stream().anyMatch(r -> r.outcome() == Outcome.REFUSED)) {
            return ExitCodes.REFUSED;
        }
        if (results.stream().anyMatch(r -> r.outcome() == Outcome.BLOCKED || r.outcome() == Outcome.FAILED)) {
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }
}
