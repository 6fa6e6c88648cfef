package dev.stsresize.converge;

import dev.stsresize.cluster.Cluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * For the benchmarks: a {@link Cluster} that records every call through the port, with when it
 * started and ended ({@code {start, end}} in {@link System#nanoTime}), so that the round trips on the
 * critical path can be counted ({@link FirstScreen#longestChain}) without a clock's noise.
 */
final class TimedCluster {
    private TimedCluster() {}

    /** {@code real}, each call added to {@code calls} (a list safe for the threads that call it) as it ends. */
    static Cluster of(Cluster real, List<long[]> calls) {
        return of(real, calls, null);
    }

    /**
     * The same, and each call's name with its text arguments added to {@code named} at the same index as its
     * times in {@code calls} (both lists are written under {@code calls}' lock), for a trace of the calls.
     */
    static Cluster of(Cluster real, List<long[]> calls, List<String> named) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (proxy, method, arguments) -> {
                    long from = System.nanoTime();
                    try {
                        return method.invoke(real, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        synchronized (calls) {
                            calls.add(new long[] {from, System.nanoTime()});
                            if (named != null) {
                                named.add(method.getName() + (arguments == null ? "" : " " + Arrays.stream(arguments)
                                        .filter(x -> x instanceof String || x instanceof Enum<?>).map(String::valueOf)
                                        .collect(Collectors.joining(" "))));
                            }
                        }
                    }
                });
    }
}
