package dev.stsresize.sim.controller;

import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.registry.EvictionPolicy;
import dev.stsresize.sim.store.StoreEvent;
import dev.stsresize.sim.store.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The simulated cluster's kube-controller-manager, kubelet, CSI sidecars and PodDisruptionBudget
 * eviction check, started against a {@link SimCluster}: one thread turns store events into keys,
 * one thread runs every sync in time order. One sync thread keeps the cluster's behaviour
 * deterministic for tests (a controller reacting after 0 ms always runs before one reacting
 * after 2 ms) while the HTTP clients write concurrently, as against a real cluster.
 */
public final class ControllerManager implements AutoCloseable {
    /**
     * The StorageClass annotation that picks the simulated resizer: {@code online}, {@code offline},
     * {@code infeasible} or {@code none} (see VolumeResizer). Any scenario may set it; the demo does.
     */
    public static final String RESIZER_ANNOTATION = "sim.stsresize.dev/resizer";
    /** The driver's error text a {@code failing} resizer reports (default: a transient {@code Unavailable}). */
    public static final String RESIZER_ERROR_ANNOTATION = "sim.stsresize.dev/resizer-error";

    /** The processes an outage can take down (see {@link Controller#component}). */
    public static final String KUBE_CONTROLLER_MANAGER = "kube-controller-manager";
    public static final String KUBELET = "kubelet";
    public static final String CSI_RESIZER = "csi-resizer";
    public static final Set<String> COMPONENTS = Set.of(KUBE_CONTROLLER_MANAGER, KUBELET, CSI_RESIZER);

    private final SimCluster sim;
    private final Timings timings;
    private final ScheduledThreadPoolExecutor loop;
    private final Subscription events;
    private final Thread pump;
    private final List<Controller> controllers = new ArrayList<>();
    private final Map<Controller, Set<Key>> queued = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    /** Each component down: from and until (System.nanoTime). */
    private final Map<String, long[]> outages = new ConcurrentHashMap<>();
    private volatile long dispatchedThrough;
    private volatile boolean closed;

    private ControllerManager(SimCluster sim, Timings timings) {
        this.sim = sim;
        this.timings = timings;
        this.loop = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "sim-controllers"));
        Kinds kinds = Kinds.of(sim.catalog());
        Context ctx = new Context(sim, kinds, timings, new EventRecorder(new Api(sim.registry(), "kube-controller-manager"), kinds), this);
        controllers.add(new StatefulSetController(ctx));
        controllers.add(new GarbageCollector(ctx));
        controllers.add(new Kubelet(ctx));
        controllers.add(new VolumeBinder(ctx));
        controllers.add(new ClaimProtection(ctx));
        controllers.add(new VolumeResizer(ctx));
        controllers.add(new DisruptionController(ctx));
        controllers.add(new ResourceQuotaController(ctx));
        controllers.forEach(c -> queued.put(c, ConcurrentHashMap.newKeySet()));
        // subscribe before the initial lists, so nothing written in between is missed
        this.events = sim.subscribe(e -> true, -1);
        this.dispatchedThrough = sim.store().resourceVersion();
        sim.registry().gracefulPodDeletion(true);
        sim.registry().evictionPolicy(new DisruptionBudgetEviction(ctx));
        for (Controller c : controllers) {
            for (Key k : c.initialKeys()) {
                enqueue(c, k, 0);
            }
        }
        this.pump = daemon(this::pump, "sim-controller-events");
        pump.start();
    }

    /** Starts every controller against {@code sim}; close it before (or with) the cluster. */
    public static ControllerManager start(SimCluster sim, Speed speed) {
        return start(sim, speed.timings());
    }

    public static ControllerManager start(SimCluster sim, Timings timings) {
        return new ControllerManager(sim, timings);
    }

    public Timings timings() {
        return timings;
    }

    /**
     * Waits until every store event has been handed to the controllers and no sync is queued or
     * running, which is when a settled cluster has settled; false after {@code timeout}.
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int quiet = 0;
        while (System.nanoTime() < deadline) {
            boolean idle = inFlight.get() == 0 && dispatchedThrough >= sim.store().resourceVersion();
            quiet = idle ? quiet + 1 : 0;
            if (quiet >= 3) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    /**
     * Takes {@code component} down {@code after} from now for {@code lasting}, to rehearse an outage: its
     * controllers sync nothing meanwhile, and what they were due to do is done once it is back, as a
     * restarted process's informers resync. On a real cluster with kube-controller-manager stopped, an
     * orphan delete leaves the StatefulSet terminating with the finalizer orphan and a new one is never
     * observed, while the kubelet and the CSI sidecars go on.
     */
    public void outage(String component, Duration after, Duration lasting) {
        if (!COMPONENTS.contains(component)) {
            throw new IllegalArgumentException("unknown component \"" + component + "\"; the components are "
                    + String.join(", ", COMPONENTS.stream().sorted().toList()));
        }
        long from = System.nanoTime() + after.toNanos();
        outages.put(component, new long[] {from, from + lasting.toNanos()});
    }

    /** How long {@code component} stays down from now, in milliseconds (0: it is up). */
    private long downFor(String component) {
        long[] o = outages.get(component);
        long now = System.nanoTime();
        return o == null || now < o[0] || now >= o[1] ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(o[1] - now) + 1);
    }

    /** Unexpected sync failures (not conflicts), for tests and {@code --debug}: a healthy run has none. */
    public List<String> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    void enqueue(Controller c, Key key, long delayMillis) {
        if (closed) {
            return;
        }
        if (delayMillis > 0) {
            inFlight.incrementAndGet();
            try {
                loop.schedule(() -> {
                    try {
                        enqueue(c, key, 0);
                    } finally {
                        inFlight.decrementAndGet();
                    }
                }, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RuntimeException rejected) {
                inFlight.decrementAndGet();
            }
            return;
        }
        if (!queued.get(c).add(key)) {
            return;
        }
        inFlight.incrementAndGet();
        try {
            loop.execute(() -> run(c, key));
        } catch (RuntimeException rejected) {
            inFlight.decrementAndGet();
        }
    }

    private void run(Controller c, Key key) {
        queued.get(c).remove(key);
        try {
            long down = downFor(c.component());
            if (down > 0) {
                enqueue(c, key, down); // done when the component is back
                return;
            }
            if (!closed) {
                c.sync(key);
            }
        } catch (ApiError e) {
            // a conflict or a vanished object: the informer cache was stale; look again shortly
            enqueue(c, key, Math.max(1, timings.retryMillis()));
        } catch (RuntimeException e) {
            failures.add(c.name() + " " + key + ": " + e);
            enqueue(c, key, Math.max(1, timings.retryMillis()) * 20);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private void pump() {
        try {
            while (!closed) {
                StoreEvent e = events.poll(50);
                if (e == null) {
                    continue;
                }
                for (Controller c : controllers) {
                    for (Key k : c.keysFor(e)) {
                        enqueue(c, k, delayFor(c));
                    }
                }
                dispatchedThrough = e.resourceVersion();
            }
        } catch (InterruptedException stop) {
            Thread.currentThread().interrupt();
        }
    }

    private long delayFor(Controller c) {
        return c instanceof GarbageCollector ? timings.gcMillis() : timings.controllerMillis();
    }

    @Override
    public void close() {
        closed = true;
        events.close();
        pump.interrupt();
        loop.shutdownNow();
        try {
            loop.awaitTermination(2, TimeUnit.SECONDS);
            pump.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sim.registry().gracefulPodDeletion(false);
        sim.registry().evictionPolicy(EvictionPolicy.ALWAYS);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
