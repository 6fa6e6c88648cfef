package dev.stsresize.job;

/**
 * The lock a CLI run ({@code kubectl stsresize apply}) holds while it converges a StatefulSet, which
 * the Job's script respects: Lease {@code stsresize-<statefulset>} (at most 253 characters) in the
 * StatefulSet's namespace, held while {@code spec.holderIdentity} is set and {@code spec.renewTime +
 * spec.leaseDurationSeconds} is in the future. Mirrors {@code converge.LeaseLock.leaseName}; the
 * script restates it (a test checks the script uses this prefix).
 */
public final class LeaseConvention {
    public static final String PREFIX = "stsresize-";

    private LeaseConvention() {}

    public static String leaseName(String statefulSet) {
        String n = PREFIX + statefulSet;
        return n.length() > 253 ? n.substring(0, 253) : n;
    }
}
