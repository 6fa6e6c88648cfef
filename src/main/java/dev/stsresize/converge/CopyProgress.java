package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Where a copy migration stands, kept in the run's {@link Record} so that {@code resume} finishes it from any point:
 * the ordinals done, and per claim its original UID and volume (with the reclaim policy it had), the new volume its
 * copy went to (with its class's policy, given back at the end) and the new volumes given up by an earlier attempt.
 * Written before each write that needs it: the new volume is recorded before the first delete of its ordinal.
 *
 * <p>Read back, it is input someone else may have written ({@link Record}): it only says where to look. A volume it
 * names is acted on only while the cluster agrees: the claim of that name is gone or bound to it, the PV's claimRef
 * names that claim ({@link CopySteps}).
 */
public record CopyProgress(String image, String copyClass, List<Integer> done, Map<String, CopiedClaim> claims) {

    /**
     * One claim of the copy.
     *
     * @param uid the original claim's UID (the one the copy read; "" before the run read it)
     * @param oldVolume the original PV, kept Released with Retain after the claim moves
     * @param oldPolicy its reclaim policy before the run set Retain ("" not read yet)
     * @param newVolume the PV the copy went to ("" before its copy pod ended)
     * @param newPolicy the reclaim policy the new PV is given back at the end (its class's)
     * @param abandoned new volumes of earlier attempts whose proof was lost: kept (Retain), listed for the operator
     */
    public record CopiedClaim(String claim, int ordinal, String uid, String oldVolume, String oldPolicy, String newVolume,
            String newPolicy, List<String> abandoned) {
        public CopiedClaim {
            abandoned = List.copyOf(abandoned);
        }

        CopiedClaim withOld(String u, String volume, String policy) {
            return new CopiedClaim(claim, ordinal, u, volume, policy, newVolume, newPolicy, abandoned);
        }

        CopiedClaim withNew(String volume, String policy) {
            return new CopiedClaim(claim, ordinal, uid, oldVolume, oldPolicy, volume, policy, abandoned);
        }

        /** The new volume given up (its proof lost with a crash): kept, listed, and the copy starts again. */
        CopiedClaim abandonNew() {
            List<String> a = new ArrayList<>(abandoned);
            a.add(newVolume);
            return new CopiedClaim(claim, ordinal, uid, oldVolume, oldPolicy, "", "", a);
        }
    }

    public CopyProgress {
        done = List.copyOf(new TreeSet<>(done));
        claims = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(claims));
    }

    /** A new copy of {@code targets}' claims (claim name → target), nothing read yet. */
    static CopyProgress start(String image, String copyClass, Map<String, String> targets) {
        Map<String, CopiedClaim> claims = new LinkedHashMap<>();
        for (String claim : targets.keySet()) {
            claims.put(claim, new CopiedClaim(claim, ordinalOf(claim), "", "", "", "", "", List.of()));
        }
        return new CopyProgress(image, copyClass, List.of(), claims);
    }

    /** The ordinals to copy, highest first (the StatefulSet controller scales down from the highest too): those not done. */
    public List<Integer> ordinalsLeft() {
        TreeSet<Integer> left = new TreeSet<>(java.util.Comparator.reverseOrder());
        claims.values().forEach(c -> left.add(c.ordinal()));
        left.removeAll(done);
        return List.copyOf(left);
    }

    /** The ordinal being copied now (the highest not done), or -1 when every ordinal is done. */
    public int current() {
        List<Integer> left = ordinalsLeft();
        return left.isEmpty() ? -1 : left.get(0);
    }

    /** Whether an ordinal has been finished since the run began: the StatefulSet standing now is the one this run applied. */
    public boolean started() {
        return !done.isEmpty();
    }

    public List<CopiedClaim> claimsOf(int ordinal) {
        return claims.values().stream().filter(c -> c.ordinal() == ordinal).toList();
    }

    CopyProgress with(CopiedClaim c) {
        Map<String, CopiedClaim> m = new LinkedHashMap<>(claims);
        m.put(c.claim(), c);
        return new CopyProgress(image, copyClass, done, m);
    }

    CopyProgress ordinalDone(int ordinal) {
        List<Integer> d = new ArrayList<>(done);
        d.add(ordinal);
        return new CopyProgress(image, copyClass, d, claims);
    }

    /** The ordinal of a claim named {@code <template>-<statefulset>-<ordinal>}: the digits after its last dash. */
    static int ordinalOf(String claim) {
        int dash = claim.lastIndexOf('-');
        try {
            return Integer.parseInt(claim.substring(dash + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("claim " + claim + " does not end in an ordinal");
        }
    }

    ObjectNode toJson() {
        ObjectNode o = Objects.MAPPER.createObjectNode();
        o.put("image", image).put("copyClass", copyClass);
        ArrayNode d = o.putArray("done");
        done.forEach(d::add);
        ObjectNode cs = o.putObject("claims");
        claims.forEach((name, c) -> {
            ObjectNode n = cs.putObject(name);
            n.put("ordinal", c.ordinal()).put("uid", c.uid()).put("oldVolume", c.oldVolume()).put("oldPolicy", c.oldPolicy())
                    .put("newVolume", c.newVolume()).put("newPolicy", c.newPolicy());
            ArrayNode a = n.putArray("abandoned");
            c.abandoned().forEach(a::add);
        });
        return o;
    }

    /**
     * The progress a record names, for exactly the claims it targets (anything else is left out); null when the record
     * has none. Names are only read as text: what is done with them is checked against the cluster first.
     */
    static CopyProgress fromJson(JsonNode o, Map<String, String> targets) {
        if (!(o instanceof ObjectNode)) {
            return null;
        }
        List<Integer> done = new ArrayList<>();
        o.path("done").forEach(n -> {
            if (n.isInt()) {
                done.add(n.asInt());
            }
        });
        Map<String, CopiedClaim> claims = new LinkedHashMap<>();
        for (String claim : targets.keySet()) {
            JsonNode n = o.path("claims").path(claim);
            List<String> abandoned = new ArrayList<>();
            n.path("abandoned").forEach(a -> abandoned.add(a.asText()));
            claims.put(claim, new CopiedClaim(claim, ordinalOf(claim), n.path("uid").asText(""), n.path("oldVolume").asText(""),
                    n.path("oldPolicy").asText(""), n.path("newVolume").asText(""), n.path("newPolicy").asText(""), abandoned));
        }
        return new CopyProgress(o.path("image").asText(""), o.path("copyClass").asText(""), done, claims);
    }
}
