package dev.stsresize.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.UserError;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The target cluster's Kubernetes version, major and minor: what decides which fields the rendered
 * Job may carry (the API server drops or refuses a field its version does not serve).
 */
public record KubernetesVersion(int major, int minor) implements Comparable<KubernetesVersion> {
    /**
     * The oldest version the plugin supports: volume expansion (ExpandPersistentVolumes, ExpandCSIVolumes,
     * ExpandInUsePersistentVolumes) is GA from v1.24 (pkg/features/kube_features.go); before it a cluster may
     * refuse every claim patch, and the CLI's policy/v1 evictions and server-side apply dry runs are older.
     */
    public static final KubernetesVersion OLDEST_SUPPORTED = new KubernetesVersion(1, 24);
    /**
     * Job {@code spec.podFailurePolicy}: feature gate JobPodFailurePolicy is alpha and off in v1.25, beta and on
     * from v1.26, GA in v1.31 (pkg/features/versioned_kube_features.go). Where the gate is off the API server
     * drops the field; before v1.25 it does not know it and kubectl refuses the file.
     */
    public static final KubernetesVersion POD_FAILURE_POLICY = new KubernetesVersion(1, 26);

    /** "1.32", "v1.32", "v1.32.3", "v1.32.3-eks-1a2b3c": major and minor, the rest ignored. */
    private static final Pattern TEXT = Pattern.compile("v?(\\d{1,3})\\.(\\d{1,3})(\\.\\d+)?([-+][0-9A-Za-z.+-]*)?");
    /** /version's {@code minor} as providers write it: "32", "32+" (GKE, EKS). */
    private static final Pattern MINOR = Pattern.compile("(\\d{1,3})\\+?");

    /** A version the user typed ({@code --kubernetes-version}). */
    public static KubernetesVersion parse(String text, String flag) {
        Matcher m = TEXT.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new UserError(flag + " takes the cluster's Kubernetes version as MAJOR.MINOR (e.g. 1.32, or v1.32.3 as"
                    + " kubectl version prints it), not \"" + text + "\"");
        }
        return new KubernetesVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /**
     * A server's {@code /version} answer (version.Info): {@code major} and {@code minor}, else its
     * {@code gitVersion}. Untrusted input: anything else is a {@link UserError} naming the server.
     */
    public static KubernetesVersion fromVersionInfo(JsonNode info, String server) {
        Matcher minor = MINOR.matcher(info.path("minor").asText(""));
        String major = info.path("major").asText("");
        if (major.matches("\\d{1,3}") && minor.matches()) {
            return new KubernetesVersion(Integer.parseInt(major), Integer.parseInt(minor.group(1)));
        }
        Matcher git = TEXT.matcher(info.path("gitVersion").asText(""));
        if (git.matches()) {
            return new KubernetesVersion(Integer.parseInt(git.group(1)), Integer.parseInt(git.group(2)));
        }
        throw new UserError("the API server " + server + " answered /version without a version (major \"" + major + "\", gitVersion \""
                + info.path("gitVersion").asText("") + "\"); pass the cluster's version with --kubernetes-version (e.g. 1.32)");
    }

    public boolean atLeast(KubernetesVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(KubernetesVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
