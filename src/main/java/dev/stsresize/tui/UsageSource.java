package dev.stsresize.tui;

import dev.stsresize.usage.UsageReport;

/** Where the UI's periodic usage reads come from: the cluster's kubelet summaries (and Prometheus), or nothing offline. */
@FunctionalInterface
public interface UsageSource {
    /** One read of the StatefulSets in scope; what cannot be read is a note of the report, not an exception. */
    UsageReport read() throws Exception;
}
