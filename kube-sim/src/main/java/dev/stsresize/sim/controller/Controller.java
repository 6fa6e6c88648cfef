package dev.stsresize.sim.controller;

import dev.stsresize.sim.store.StoreEvent;
import java.util.List;

/**
 * One reconcile loop, like a kube-controller-manager controller: the keys a store event makes it
 * look at (its informer handlers), the keys it looks at on start (the initial list), and a sync
 * that brings one key towards the desired state, reading fresh state each time (level-triggered).
 */
abstract class Controller {
    protected final Context ctx;

    Controller(Context ctx) {
        this.ctx = ctx;
    }

    abstract String name();

    /**
     * The process it belongs to on a real cluster, for an outage ({@link ControllerManager#outage}):
     * most controllers are kube-controller-manager's (cmd/kube-controller-manager/app/controllermanager.go
     * NewControllerInitializers); the kubelet and the CSI external-resizer are processes of their own.
     */
    String component() {
        return ControllerManager.KUBE_CONTROLLER_MANAGER;
    }

    abstract List<Key> keysFor(StoreEvent e);

    abstract List<Key> initialKeys();

    abstract void sync(Key key);

    /** Looks at {@code key} again after {@code millis}. */
    protected void requeue(Key key, long millis) {
        ctx.manager().enqueue(this, key, millis);
    }
}
