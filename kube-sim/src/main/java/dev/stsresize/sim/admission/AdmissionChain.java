package dev.stsresize.sim.admission;

import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * The admission plugins of the simulated cluster, in the order kube-apiserver runs them
 * (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins: StorageObjectInUseProtection, then
 * PersistentVolumeClaimResize before ResourceQuota,
 * which "must go at the end"). As staging/src/k8s.io/apiserver/pkg/admission/chain.go does, every mutating
 * plugin that handles a request runs in order ({@link #admit}), then every validating one ({@link #validate});
 * the first refusal ends the request. A new plugin is one class and one line in {@link #standard}.
 */
public final class AdmissionChain {
    private final List<AdmissionPlugin> plugins;

    private AdmissionChain(List<AdmissionPlugin> plugins) {
        this.plugins = List.copyOf(plugins);
    }

    /** The plugins a v1.32 kube-apiserver enables by default, as far as the simulator has them. */
    public static AdmissionChain standard(Store store, Catalog catalog) {
        return new AdmissionChain(List.of(
                new StorageProtectionAdmission(),
                new ResizeAdmission(store, catalog),
                new QuotaAdmission(store, catalog)));
    }

    /** This chain with one more plugin at the end. */
    public AdmissionChain with(AdmissionPlugin plugin) {
        List<AdmissionPlugin> more = new ArrayList<>(plugins);
        more.add(plugin);
        return new AdmissionChain(more);
    }

    public List<String> names() {
        return plugins.stream().map(AdmissionPlugin::name).toList();
    }

    /** The mutating phase: each mutating plugin that handles the request, in order. */
    public void admit(AdmissionPlugin.Attributes a) {
        for (AdmissionPlugin p : plugins) {
            if (p instanceof AdmissionPlugin.Mutating m && p.handles(a)) {
                m.admit(a);
            }
        }
    }

    /** The validating phase: each validating plugin that handles the request, in order. */
    public void validate(AdmissionPlugin.Attributes a) {
        for (AdmissionPlugin p : plugins) {
            if (p instanceof AdmissionPlugin.Validating v && p.handles(a)) {
                v.validate(a);
            }
        }
    }
}
