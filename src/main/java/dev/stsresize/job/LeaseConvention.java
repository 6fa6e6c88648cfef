package dev.stsresize.job;

import dev.stsresize.converge.LeaseLock;

/**
 * The lock a CLI run ({@code kubectl stsresize apply}) holds while it converges a StatefulSet, which
 * the Job's script respects: Lease {@code stsresize-<statefulset>} (at most 253 characters) in the
 * StatefulSet's namespace, held while {@code spec.holderIdentity} is set and {@code spec.renewTime +
 * spec.leaseDurationSeconds} is in the future. The name is {@link LeaseLock}'s, the one place it is
 * defined; the script restates the prefix (a test checks that it does).
 */
public final class LeaseConvention {
    public static final String PREFIX = LeaseLock.LEASE_PREFIX;

    private LeaseConvention() {}

    public static String leaseName(String statefulSet) {
        return LeaseLock.leaseName(statefulSet);
    }
}
