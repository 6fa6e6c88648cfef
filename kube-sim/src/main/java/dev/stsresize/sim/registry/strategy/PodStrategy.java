package dev.stsresize.sim.registry.strategy;

/**
 * pkg/registry/core/pod/strategy.go CheckGracefulDelete: a deleted pod keeps running for its grace period
 * (the kubelet removes it), where other kinds go at once.
 */
final class PodStrategy implements Strategy {
    @Override
    public boolean gracefulDelete() {
        return true;
    }
}
