package dev.stsresize.sim.admission;

/**
 * The feature gates of kube-apiserver that change an answer the simulator gives, at v1.32's defaults
 * (pkg/features/kube_features.go). One server's gates: set them before clients send requests.
 */
public final class FeatureGates {
    /**
     * KEP-1790: a claim's request may be lowered again while it stays above {@code status.capacity}. Alpha (off)
     * from v1.23, beta and on by default from v1.32, GA in v1.34; off, the server answers as one older than v1.32.
     */
    private volatile boolean recoverVolumeExpansionFailure = true;

    public boolean recoverVolumeExpansionFailure() {
        return recoverVolumeExpansionFailure;
    }

    public FeatureGates recoverVolumeExpansionFailure(boolean on) {
        this.recoverVolumeExpansionFailure = on;
        return this;
    }

    /** Sets a gate by its name; an unknown name is refused with the ones this server knows. */
    public void set(String name, boolean on) {
        if (!"RecoverVolumeExpansionFailure".equals(name)) {
            throw new IllegalArgumentException("unknown feature gate \"" + name + "\"; the simulator knows RecoverVolumeExpansionFailure");
        }
        recoverVolumeExpansionFailure(on);
    }
}
