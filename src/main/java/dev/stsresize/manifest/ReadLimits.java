package dev.stsresize.manifest;

/**
 * Bounds on hostile input, so that an alias bomb, a deeply nested or an enormous document is refused
 * with a message instead of exhausting memory or the stack.
 *
 * @param maxDocumentChars code points (YAML) or characters (JSON) one document may hold
 * @param maxNestingDepth how deep objects and arrays may nest
 * @param maxAliases how many aliases to collections a YAML document may use
 */
public record ReadLimits(int maxDocumentChars, int maxNestingDepth, int maxAliases) {
    /**
     * Generous for any real manifest (a large Helm chart's CRD is a few hundred kB and 30 levels
     * deep; Kubernetes itself caps an object at about 1.5 MB), tight enough that a bomb stops early.
     */
    public static final ReadLimits DEFAULT = new ReadLimits(8 * 1024 * 1024, 100, 50);
}
