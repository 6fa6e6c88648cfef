package dev.stsresize.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Bytes;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Durations;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.SuggestedSize;
import java.util.ArrayList;
import dev.stsresize.plan.UnmeasuredClaim;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code usage} command's answer: every StatefulSet of the namespaces in scope, fullest first, with its
 * fullest claim (USED as the alert measures it, {@code 1 − available ÷ capacity}, and AVAILABLE beside it), its
 * soonest time to full and the suggested sizes; then the claims on a shared file system and those with no usage,
 * each with why; then the {@code set-size} command line of each suggestion. As a document ({@code stsresize/v1}
 * {@code Usage}) the same items carry every claim.
 */
public final class UsageTable {
    private static final String[] HEADER = {"NAMESPACE/NAME", "USED", "AVAILABLE", "CLAIM", "CAPACITY", "FILLS IN", "SUGGEST"};
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private UsageTable() {}

    /**
     * @param known the StatefulSets whose usage is known, fullest first
     * @param unknown {@code namespace/name} of the others, in order
     * @param unmeasured by {@code namespace/name}, the claims with no usage and why (known or unknown StatefulSets)
     * @param manifest the file to name in the set-size lines ({@code MANIFEST} when none was given)
     */
    public static String render(List<StatefulSetUsage> known, List<String> unknown, Map<String, List<UnmeasuredClaim>> unmeasured,
            String manifest, Palette p) {
        List<String[]> rows = new ArrayList<>();
        for (StatefulSetUsage u : known) {
            ClaimUsage c = u.fullest().orElseThrow();
            String suggest = !u.suggestions().isEmpty() ? UsageText.suggestions(u) : c.sharedFileSystem() ? "none: shared file system" : "-";
            rows.add(new String[] {u.key(), UsageText.percent(c), Bytes.human(c.availableBytes()), c.claim(), Bytes.human(c.capacityBytes()),
                u.fillsIn().map(Durations::brief).orElse("-"), suggest});
        }
        for (String key : unknown) {
            rows.add(new String[] {key, "?", "-", "-", "-", "-", "-"});
        }
        int[] w = new int[HEADER.length];
        for (int i = 0; i < HEADER.length; i++) {
            w[i] = HEADER[i].length();
            for (String[] r : rows) {
                w[i] = Math.max(w[i], r[i].codePointCount(0, r[i].length()));
            }
        }
        StringBuilder out = new StringBuilder();
        out.append(p.dim(line(HEADER, w))).append('\n');
        for (int i = 0; i < rows.size(); i++) {
            String text = line(rows.get(i), w);
            out.append(i < known.size() ? UsageText.percentStyle(p, known.get(i)).apply(text) : p.dim(text)).append('\n');
        }
        List<String> shared = new ArrayList<>();
        for (StatefulSetUsage u : known) {
            u.claims().stream().filter(ClaimUsage::sharedFileSystem)
                    .forEach(c -> shared.add(u.key() + " " + c.claim() + ": " + UsageText.sharedWhy(c)));
        }
        if (!shared.isEmpty()) {
            out.append('\n').append("On a shared file system (a directory of a larger disk, as a hostPath-style driver gives: USED is that disk's,"
                    + " and no claim size changes it, so none is suggested):\n");
            shared.forEach(l -> out.append("  ").append(l).append('\n'));
        }
        List<String> missing = new ArrayList<>();
        unmeasured.forEach((key, claims) -> claims.forEach(c -> missing.add(key + " " + c.claim() + ": " + c.reason())));
        if (!missing.isEmpty()) {
            out.append('\n').append("No usage (the kubelet reported nothing for these claims):\n");
            missing.forEach(l -> out.append("  ").append(p.dim(l)).append('\n'));
        }
        List<String> commands = setSizeCommands(known, manifest);
        if (!commands.isEmpty()) {
            out.append('\n').append("To raise a size in the manifest (only the quantity changes; then plan or apply it as usual):\n");
            commands.forEach(c -> out.append("  ").append(c).append('\n'));
        }
        return out.toString();
    }

    /** {@code kubectl stsresize set-size -f MANIFEST payments/ledger data=14Gi}, one per StatefulSet with a suggestion. */
    public static List<String> setSizeCommands(List<StatefulSetUsage> known, String manifest) {
        List<String> out = new ArrayList<>();
        for (StatefulSetUsage u : known) {
            setSize(u, manifest).ifPresent(out::add);
        }
        return out;
    }

    static Optional<String> setSize(StatefulSetUsage u, String manifest) {
        if (u.suggestions().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("kubectl stsresize set-size -f " + manifest + " " + u.key() + " "
                + u.suggestions().stream().map(s -> s.template() + "=" + s.suggested()).collect(Collectors.joining(" ")));
    }

    /** The {@code stsresize/v1} {@code Usage} document. */
    public static ObjectNode document(List<StatefulSetUsage> known, List<String> unknown, Map<String, List<UnmeasuredClaim>> unmeasured,
            List<String> notes, String manifest) {
        ObjectNode doc = PlanDocument.document("Usage");
        ArrayNode items = (ArrayNode) doc.get("items");
        for (StatefulSetUsage u : known) {
            ObjectNode item = PlanDocument.item(items, u.namespace(), u.name());
            item.put("usedPercent", PlanDocument.percent(u.fullest().orElseThrow()));
            PlanDocument.usageFields(item, Optional.of(u));
            setSize(u, manifest).ifPresent(c -> item.put("setSize", c));
        }
        for (String key : unknown) {
            ObjectNode item = items.addObject();
            item.put("namespace", key.substring(0, key.indexOf('/')));
            item.put("name", key.substring(key.indexOf('/') + 1));
            item.putNull("usedPercent");
            PlanDocument.usageFields(item, Optional.empty());
            PlanDocument.unmeasuredField(item, unmeasured.getOrDefault(key, List.of()));
        }
        ArrayNode n = doc.putArray("notes");
        notes.forEach(n::add);
        return doc;
    }

    private static String line(String[] cells, int[] w) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            b.append(cells[i]);
            if (i < cells.length - 1) {
                b.append(" ".repeat(w[i] - cells[i].codePointCount(0, cells[i].length()) + 2));
            }
        }
        return b.toString().stripTrailing();
    }

    static String suggestion(SuggestedSize s) {
        return UsageText.suggestion(s);
    }
}
