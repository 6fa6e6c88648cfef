package dev.stsresize.cli;

import dev.stsresize.converge.Outcome;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.render.DocumentWriter;
import dev.stsresize.render.ResultDocument;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.UnmeasuredClaim;
import dev.stsresize.plan.Verdict;
import dev.stsresize.render.Palette;
import dev.stsresize.render.PlanDocument;
import dev.stsresize.render.TableRenderer;
import dev.stsresize.render.UsageTable;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one printer of what commands found or did, in the format {@code -o} names, and the exit status it
 * implies: {@code plan}'s decisions (the table, or the Plan document), {@code usage}'s report, and the end of
 * {@code apply} and {@code resume} (one line per StatefulSet, or the Result document).
 */
final class ResultPrinter {
    private ResultPrinter() {}

    /** The decisions as the table (fitted to {@code width}, coloured by {@code palette}) or the stsresize/v1 Plan document. */
    static void plan(List<Decision> decisions, Optional<Map<String, StatefulSetUsage>> usageByKey, OutputFormat.Document format,
            Palette palette, int width, PrintWriter out) {
        plan(decisions, usageByKey, format, palette, width, CopyOptIn.NONE, out);
    }

    /** @param copy the operator's opt-in to the copy, whose new volumes' class a copy plan names */
    static void plan(List<Decision> decisions, Optional<Map<String, StatefulSetUsage>> usageByKey, OutputFormat.Document format,
            Palette palette, int width, CopyOptIn copy, PrintWriter out) {
        switch (format) {
            case json -> DocumentWriter.json(PlanDocument.of(decisions, usageByKey, copy), out);
            case yaml -> out.print(DocumentWriter.yaml(PlanDocument.of(decisions, usageByKey, copy)));
            case table -> out.print(new TableRenderer(palette, width, copy).render(decisions, usageByKey.orElse(Map.of())));
        }
        out.flush();
    }

    /** {@code version}: its line for the table, its document for json and yaml. */
    static void version(String line, com.fasterxml.jackson.databind.JsonNode document, OutputFormat.Document format, PrintWriter out) {
        if (format == OutputFormat.Document.table) {
            out.println(line);
            out.flush();
        } else {
            document(document, format, out);
        }
    }

    /** A stsresize/v1 document of a command that is neither a plan nor a Result ({@code revert}, {@code version}), as -o json or yaml asks. */
    static void document(com.fasterxml.jackson.databind.JsonNode doc, OutputFormat.Document format, PrintWriter out) {
        out.print(format == OutputFormat.Document.yaml ? DocumentWriter.yaml(doc) : DocumentWriter.json(doc) + "\n");
        out.flush();
    }

    /**
     * Each note on a line of its own ("note: ..."), in one write: stderr is flushed at every line, which took a system
     * call per note, 2,000 of them for the usage of a plan of 2,000 StatefulSets whose pods do not run.
     */
    static void notes(List<String> notes, PrintWriter out) {
        StringBuilder lines = new StringBuilder();
        notes.forEach(n -> lines.append("note: ").append(n).append(System.lineSeparator()));
        out.print(lines);
        out.flush();
    }

    /** {@code usage}'s report: the table, fullest first, or the stsresize/v1 Usage document. */
    static void usage(List<StatefulSetUsage> known, List<String> unknown, Map<String, List<UnmeasuredClaim>> unmeasured,
            List<String> notes, String manifest, OutputFormat.Document format, Palette palette, PrintWriter out) {
        switch (format) {
            case json -> DocumentWriter.json(UsageTable.document(known, unknown, unmeasured, notes, manifest), out);
            case yaml -> out.print(DocumentWriter.yaml(UsageTable.document(known, unknown, unmeasured, notes, manifest)));
            case table -> out.print(UsageTable.render(known, unknown, unmeasured, manifest, palette));
        }
        out.flush();
    }

    /** A plan's exit status: 2 when any is refused; else 1 when any is blocked; else 3 with --exit-code when there is work; else 0. */
    static int exitCode(List<Decision> decisions, boolean workIsExitCode) {
        if (decisions.stream().anyMatch(d -> d.verdict() == Verdict.REFUSED)) {
            return ExitCodes.REFUSED;
        }
        if (decisions.stream().anyMatch(d -> d.verdict() == Verdict.BLOCKED)) {
            return ExitCodes.FAILED;
        }
        if (workIsExitCode && decisions.stream().anyMatch(d -> d.verdict().hasWork())) {
            return ExitCodes.WORK_TO_DO;
        }
        return ExitCodes.OK;
    }

    static int print(List<StatefulSetResult> results, OutputFormat.Result output, PrintWriter out) {
        if (output == OutputFormat.Result.json) {
            DocumentWriter.json(ResultDocument.of(results), out);
        } else if (output == OutputFormat.Result.yaml) {
            out.print(DocumentWriter.yaml(ResultDocument.of(results)));
        } else {
            for (StatefulSetResult r : results) {
                // a reason that only repeats the outcome ("stopped") is said once
                out.println(r.namespace() + "/" + r.name() + ": " + r.outcome().label()
                        + (r.reason().isEmpty() || r.reason().equals(r.outcome().label()) ? "" : " (" + r.reason() + ")") + " - " + r.detail());
                r.claims().stream().filter(c -> c.fileSystem() != null).sorted(java.util.Comparator.comparing(
                        StatefulSetResult.ClaimResult::name, ResultDocument.ORDINAL_NAMES)).forEach(c -> out.println("  claim " + c.name()
                        + ": " + (c.from().isEmpty() ? "?" : c.from()) + " -> " + c.to() + ", capacity " + (c.capacity().isEmpty() ? "unknown"
                        : c.capacity()) + ", file system " + c.fileSystem().label() + (c.fileSystemBytes() < 0 ? ""
                        : " (" + dev.stsresize.plan.Bytes.human(c.fileSystemBytes()) + " reported by the kubelet"
                        + (c.fileSystemShared() ? ": shared with the node, not the claim's own" : "") + ")")));
                r.claims().stream().filter(c -> c.copied() != null).sorted(java.util.Comparator.comparing(
                        StatefulSetResult.ClaimResult::name, ResultDocument.ORDINAL_NAMES)).forEach(c -> out.println("  claim " + c.name()
                        + ": copied from PersistentVolume " + c.copied().previousVolume() + " (kept) to " + c.copied().volume()
                        + ", capacity " + (c.capacity().isEmpty() ? "unknown" : c.capacity()) + (c.copied().files() < 0 ? ""
                        : ", " + c.copied().files() + " files, " + dev.stsresize.plan.Bytes.human(c.copied().bytes()) + " verified")));
                r.warnings().forEach(w -> out.println("  warning: " + w));
                if (!r.phases().isEmpty()) {
                    out.println("  took: " + String.join(", ", r.phases().stream().map(p -> p.phase() + " " + p.words()).toList()));
                }
            }
        }
        out.flush();
        return exitCode(results);
    }

    /** A converge's exit status: 2 when any was refused; else 1 when any was blocked or failed; else 0. */
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
