package dev.stsresize.manifest;

/**
 * Bounds on hostile input, so that an alias bomb, a deeply nested or an enormous document is refused
 * with a message instead of exhausting memory, the stack or the CPU.
 *
 * @param maxDocumentBytes UTF-8 bytes one document may hold, measured before it is parsed ({@link DocumentSizes})
 * @param maxNestingDepth how deep objects and arrays may nest
 * @param maxAliases how many aliases to collections a YAML document may use
 */
public record ReadLimits(int maxDocumentBytes, int maxNestingDepth, int maxAliases) {
    /**
     * For manifests: kube-apiserver reads at most 3 MiB of one request body ({@code MaxRequestBodyBytes}
     * in staging/src/k8s.io/apiserver/pkg/server/config.go; etcd stores 1.5 MiB per object), so a
     * bigger document cannot be one object kubectl applies. Nesting and aliases: a large Helm chart's
     * CRD is 30 levels deep; a bomb stops early.
     */
    public static final ReadLimits DEFAULT = new ReadLimits(3 * 1024 * 1024, 100, 50);

    /** For a captured live state ({@code --live}): one List of every StatefulSet and claim, so larger. */
    public static final ReadLimits SNAPSHOT = new ReadLimits(64 * 1024 * 1024, 100, 50);

    /** {@code 3 MiB}, for messages. */
    static String describe(long bytes) {
        if (bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MiB";
        }
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }
}
