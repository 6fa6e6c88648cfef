package dev.stsresize.converge;

import dev.stsresize.cluster.Cluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * For the benchmarks: a {@link Cluster} that records every call through the port, with when it
 * started and ended ({@code {start, end}} in {@link System#nanoTime}), so that the round trips on the
 * critical path can be counted ({@link FirstScreen#longestChain}) without a clock's noise.
 */
final class TimedCluster {
    private TimedCluster() {}

    /** {@code real}, each call added to {@code calls} (a list safe for the threads that call it) as it ends. */
    static Cluster of(Cluster real, List<long[]> calls) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (proxy, method, arguments) -> {
                    long from = System.nanoTime();
                    try {
                        return method.invoke(real, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        calls.add(new long[] {from, System.nanoTime()});
                    }
                });
    }
}
