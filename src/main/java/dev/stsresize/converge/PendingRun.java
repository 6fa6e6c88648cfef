package dev.stsresize.converge;

import java.util.ArrayList;
import java.util.List;

/**
 * A run found unfinished, where it was found, and why it cannot be trusted ("" when it can). A
 * record that cannot be trusted is never acted on: it is reported with the commands that inspect and
 * remove it ({@link #leftAlone}).
 *
 * @param record null when the stored record could not even be read
 * @param local found in this machine's journal (else in the StatefulSet's Lease and Secret)
 * @param source where, in words ("the local journal /…/shop_db.json", "Lease shop/stsresize-db and Secret shop/stsresize-db")
 */
public record PendingRun(String namespace, String name, Record record, boolean local, String source, String problem) {

    public boolean trusted() {
        return problem.isEmpty() && record != null;
    }

    /** Whether the stopped run had passed its orphan-delete gate (phase deleting or later): the operator allowed the delete. */
    public boolean pastTheDeleteGate() {
        return record != null && Phase.pastTheDeleteGate(record.phase());
    }

    PendingRun withProblem(String p) {
        return new PendingRun(namespace, name, record, local, source, p);
    }

    /** Who wrote the record and when, as the record says (a Lease or Secret proves neither). */
    public String recordedBy() {
        return record == null ? "unknown" : record.holder() + " at " + (record.startedAt().isEmpty() ? "an unknown time" : record.startedAt());
    }

    /** One paragraph: which record, why it is left alone, and how to look at it and remove it. */
    public String leftAlone() {
        return "the record of a stopped run of StatefulSet " + namespace + "/" + name + " in " + source + " is not used: " + problem
                + ". It was left alone and nothing was written. Inspect it with " + String.join(" and ", inspect())
                + "; once you know that run is over, remove it with " + String.join(" and ", remove()) + ", then run again";
    }

    List<String> inspect() {
        List<String> out = new ArrayList<>();
        if (local) {
            out.add("`cat " + path() + "`");
        } else {
            String n = RecordSecret.name(name);
            out.add("`kubectl get lease " + n + " -n " + namespace + " -o yaml`");
            out.add("`kubectl get secret " + n + " -n " + namespace + " -o jsonpath='{.data.record\\.json\\.gz}' | base64 -d | gunzip`");
        }
        return out;
    }

    List<String> remove() {
        if (local) {
            return List.of("`rm " + path() + "`");
        }
        String n = RecordSecret.name(name);
        return List.of("`kubectl delete secret " + n + " -n " + namespace + "`", "`kubectl delete lease " + n + " -n " + namespace + "`");
    }

    private String path() {
        return source.startsWith(LOCAL_PREFIX) ? source.substring(LOCAL_PREFIX.length()) : source;
    }

    /**
     * What resuming from this record without a manifest would write, for the operator to confirm: who
     * recorded it and when (as it says), where it was found, the object it would re-apply as a diff
     * against the live object it recorded, and the claims it would grow.
     */
    public String describe() {
        StringBuilder b = new StringBuilder("StatefulSet " + namespace + "/" + name + ": a run recorded by " + recordedBy()
                + ", stopped at phase " + (record.phase().isEmpty() ? "unknown" : record.phase()) + ", found in " + source + ".\n");
        if (record.reapply() != null) {
            b.append("  Resuming re-applies the recorded object (field manager ").append(record.fieldManager())
                    .append("); what it sets differently from the live object it recorded (a field it leaves out takes"
                            + " its default):\n");
            java.util.List<String> lines = TreeDiff.setBy(record.live(), record.reapply(), p -> p.startsWith("/status")
                    || p.startsWith("/metadata/") && Objects.SERVER_METADATA.contains(p.substring("/metadata/".length()).split("/")[0]));
            lines.forEach(l -> b.append("    ").append(l).append('\n'));
            if (lines.isEmpty()) {
                b.append("    (no difference)\n");
            }
        }
        record.claimTargets().forEach((c, t) -> b.append("  grows claim ").append(c).append(" to ").append(t).append('\n'));
        return b.toString();
    }

    static final String LOCAL_PREFIX = "the local journal ";
}
