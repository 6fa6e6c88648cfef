package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.plan.Metadata;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Step 9: an Event for every write, on the object written, naming the operator; its reporting
 * controller is {@code kubectl-stsresize}. An events.k8s.io/v1 Event where the user may create one;
 * where not (the built-in {@code admin} and {@code edit} roles grant core {@code events} only), a core
 * v1 Event as client-go's record package writes one; where neither, none, said once per namespace.
 * An Event is never a reason to stop: the work is recorded in the Lease, the journal and the output.
 * What was refused is remembered for the run, so each namespace costs at most one refused request per API.
 *
 * <p>The converge sends its Events with {@link #later}: off its critical path, one after another on a
 * thread of their own (so in the order of the writes they tell of), each after the write it tells of
 * was answered; {@link #flush} waits for them at the end of a run and says their warnings then, on the
 * driver's thread.
 */
final class Events {
    static final String CONTROLLER = "kubectl-stsresize";

    /** metav1.Time: seconds, UTC, as core v1 Events' first and last timestamps are written. */
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ISO_INSTANT;

    private final Cluster cluster;
    private final Clock clock;
    private final String operator;
    private final Progress progress;
    /** Namespaces where events.k8s.io Events were refused: core v1 Events there. */
    private final Set<String> coreOnly = ConcurrentHashMap.newKeySet();
    /** Namespaces where both were refused: no Events there, said once. */
    private final Set<String> none = ConcurrentHashMap.newKeySet();
    /** The Events sent with {@link #later}, oldest first, not yet flushed. */
    private final java.util.Deque<java.util.concurrent.Future<?>> pending = new java.util.concurrent.ConcurrentLinkedDeque<>();
    /** What the Events sent with {@link #later} had to say (a refusal, a failure), said at the next {@link #flush}. */
    private final java.util.Queue<ProgressEvent> unsaid = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private java.util.concurrent.ExecutorService sender;

    Events(Cluster cluster, Clock clock, String operator, Progress progress) {
        this.cluster = cluster;
        this.clock = clock;
        this.operator = operator;
        this.progress = progress;
    }

    /**
     * {@code <name>-}, which kube-apiserver accepts for events.k8s.io/v1: pkg/apis/core/validation/events.go
     * checks generateName with NameIsDNSSubdomain (a trailing dash allowed, a trailing '.' refused:
     * {@code <name>.} was a 422), and names.SimpleNameGenerator keeps 58 characters of the prefix, so
     * the name is cut to 57 first and never left ending in '.' or '-' (the generated name would not be
     * a DNS subdomain).
     */
    static String generateName(String name) {
        String base = name.length() > 57 ? name.substring(0, 57) : name;
        while (!base.isEmpty() && !Character.isLetterOrDigit(base.charAt(base.length() - 1))) {
            base = base.substring(0, base.length() - 1);
        }
        return base + "-";
    }

    /** An Event written now; its warning, if any, said now. */
    void on(ObjectNode regarding, String reason, String action, String note) {
        write(regarding, reason, action, note, progress::on);
    }

    /**
     * An Event queued to be written after those queued before it, while the run goes on: an Event is
     * never a reason to stop nor to wait. Its warning waits for {@link #flush}.
     */
    synchronized void later(ObjectNode regarding, String reason, String action, String note) {
        if (sender == null) {
            sender = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "stsresize-events");
                t.setDaemon(true);
                return t;
            });
        }
        pending.add(sender.submit(() -> write(regarding, reason, action, note, unsaid::add)));
    }

    /** Waits until every Event queued with {@link #later} was answered, then says what they had to say. */
    void flush() {
        java.util.concurrent.Future<?> f;
        while ((f = pending.poll()) != null) {
            try {
                Together.join(f);
            } catch (RuntimeException e) {
                // write catches what the server answers; anything else is no reason to stop either
            }
        }
        ProgressEvent e;
        while ((e = unsaid.poll()) != null) {
            progress.on(e);
        }
    }

    private void write(ObjectNode regarding, String reason, String action, String note, java.util.function.Consumer<ProgressEvent> say) {
        String ns = Objects.namespace(regarding);
        if (none.contains(ns)) {
            return;
        }
        String text = note + " (by " + operator + ")";
        text = text.length() > 1024 ? text.substring(0, 1024) : text;
        if (!coreOnly.contains(ns)) {
            try {
                cluster.createEvent(eventsV1(regarding, reason, action, text));
                return;
            } catch (ClusterException e) {
                if (!refused(e)) {
                    say.accept(warning(regarding, reason, e.getMessage()));
                    return;
                }
                coreOnly.add(ns);
            } catch (RuntimeException e) {
                say.accept(warning(regarding, reason, e.getMessage()));
                return;
            }
        }
        try {
            cluster.createEvent(coreV1(regarding, reason, action, text));
        } catch (ClusterException e) {
            if (e.code() == 403 && none.add(ns)) {
                say.accept(ProgressEvent.warn(ns, Objects.name(regarding), Phase.RECORD, "Events are not recorded in namespace " + ns
                        + ": you cannot create events.events.k8s.io nor events there (the server: " + e.getMessage() + "). The run"
                        + " goes on; what it did is in its output and its record"));
            } else if (e.code() != 403) {
                say.accept(warning(regarding, reason, e.getMessage()));
            }
        } catch (RuntimeException e) {
            say.accept(warning(regarding, reason, e.getMessage()));
        }
    }

    /** Forbidden, or the events.k8s.io API not served at all: the core API may still take the Event. */
    private static boolean refused(ClusterException e) {
        return e.code() == 403 || e.code() == 404;
    }

    private static ProgressEvent warning(ObjectNode regarding, String reason, String why) {
        return ProgressEvent.warn(Objects.namespace(regarding), Objects.name(regarding), Phase.RECORD,
                "could not record Event " + reason + " on " + Metadata.textOrEmpty(regarding, "kind") + " " + Objects.name(regarding)
                        + ": " + why);
    }

    private ObjectNode eventsV1(ObjectNode regarding, String reason, String action, String note) {
        ObjectNode e = Objects.MAPPER.createObjectNode();
        e.put("apiVersion", "events.k8s.io/v1").put("kind", "Event");
        e.putObject("metadata").put("generateName", generateName(Objects.name(regarding))).put("namespace", Objects.namespace(regarding));
        e.put("eventTime", LeaseLock.now(clock));
        e.put("reportingController", CONTROLLER);
        e.put("reportingInstance", instance());
        e.put("action", action);
        e.put("reason", reason);
        e.put("type", "Normal");
        e.put("note", note);
        e.set("regarding", reference(regarding));
        return e;
    }

    /**
     * A core v1 Event as client-go's tools/record writes one (recorder.generateEvent: first and last
     * timestamp, count 1, source and reportingComponent the controller, reportingInstance the
     * instance, no eventTime), so kubectl get events and describe show it like any controller's; with
     * no eventTime the server keeps to events.go's legacy checks, which it meets.
     */
    private ObjectNode coreV1(ObjectNode regarding, String reason, String action, String message) {
        ObjectNode e = Objects.MAPPER.createObjectNode();
        e.put("apiVersion", "v1").put("kind", "Event");
        e.putObject("metadata").put("generateName", generateName(Objects.name(regarding))).put("namespace", Objects.namespace(regarding));
        e.set("involvedObject", reference(regarding));
        e.put("reason", reason);
        e.put("message", message);
        e.putObject("source").put("component", CONTROLLER);
        String now = SECONDS.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
        e.put("firstTimestamp", now);
        e.put("lastTimestamp", now);
        e.put("count", 1);
        e.put("type", "Normal");
        e.put("action", action);
        e.put("reportingComponent", CONTROLLER);
        e.put("reportingInstance", instance());
        return e;
    }

    private String instance() {
        return operator.length() > 128 ? operator.substring(0, 128) : operator;
    }

    private static ObjectNode reference(ObjectNode regarding) {
        ObjectNode ref = Objects.MAPPER.createObjectNode();
        ref.put("apiVersion", Metadata.textOrEmpty(regarding, "apiVersion")).put("kind", Metadata.textOrEmpty(regarding, "kind"))
                .put("namespace", Objects.namespace(regarding)).put("name", Objects.name(regarding)).put("uid", Objects.uid(regarding));
        return ref;
    }
}
