package dev.stsresize.converge;

import dev.stsresize.cluster.AccessReview;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.ResourceAccess;
import dev.stsresize.cluster.RulesReview;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * What the current user may do, per namespace: one SelfSubjectRulesReview per namespace (what
 * {@code kubectl auth can-i --list} asks) answers every question locally, so the proofs cost one round
 * trip whatever the number of verbs. Where the server cannot list every rule (its answer is
 * {@code incomplete}: a webhook or the Node authorizer may grant what no rule shows) or refuses the
 * rules review, each question is a SelfSubjectAccessReview, asked once per run.
 */
final class Permissions {
    private final Cluster cluster;
    /** The complete rules of each namespace asked; a namespace absent here is answered by access reviews. */
    private final Map<String, RulesReview> rules = new ConcurrentHashMap<>();
    private final Map<String, FutureTask<AccessReview>> reviews = new ConcurrentHashMap<>();

    Permissions(Cluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Asks for the namespace's rules; answers whether they are complete, so that access reviews are not
     * needed there. A refusal or failure of the rules review is not an error: access reviews ask instead.
     */
    boolean readRules(String namespace) {
        RulesReview answer;
        try {
            answer = cluster.selfSubjectRulesReview(namespace);
        } catch (ClusterException e) {
            return false;
        }
        if (answer.incomplete()) {
            return false;
        }
        rules.put(namespace, answer);
        return true;
    }

    /** Whether the rules of the namespace are known, so {@link #allowed} asks nothing there. */
    boolean known(String namespace) {
        return rules.containsKey(namespace);
    }

    /** May the current user do this? From the namespace's rules when complete, else one access review (once per run). */
    boolean allowed(ResourceAccess access) {
        RulesReview known = rules.get(access.namespace());
        if (known != null) {
            return known.allows(access);
        }
        FutureTask<AccessReview> mine = new FutureTask<>(() -> cluster.selfSubjectAccessReview(access));
        FutureTask<AccessReview> asked = reviews.putIfAbsent(access.namespace() + " " + access.describe(), mine);
        if (asked == null) {
            mine.run();
            asked = mine;
        }
        try {
            return asked.get().allowed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the server's answers were awaited", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
