package dev.stsresize.converge;

import dev.stsresize.plan.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The runs a front end holds open, one per StatefulSet (the wizard's), and what leaving them means ({@link
 * Convergence#leave}): a run before its orphan delete is released with nothing deleted, one past it finished rather than
 * cut off, a copy under way stopped at its next safe point. Where each stands once closed is said here, once.
 *
 * <p>Any thread: the front end's step thread opens runs, its UI thread leaves and closes them.
 *
 * @param <R> what the front end keeps of a run, its {@link Convergence} among it
 */
public final class OpenRuns<R> {
    private final Map<String, R> runs = new ConcurrentHashMap<>();
    private final Function<R, Convergence> machine;
    private final List<String> leftAtClose = new CopyOnWriteArrayList<>();

    public OpenRuns(Function<R, Convergence> machine) {
        this.machine = machine;
    }

    /** The run open for {@code key} ({@code namespace/name}), or null. */
    public R get(String key) {
        return runs.get(key);
    }

    /** The machine of the run open for {@code key}, if one is. */
    public Optional<Convergence> machine(String key) {
        return Optional.ofNullable(runs.get(key)).map(machine);
    }

    /** A run opened for {@code key}: one opened for it before (a wizard opened again) is over. */
    public void open(String key, R run) {
        R previous = runs.put(key, run);
        if (previous != null) {
            machine.apply(previous).leave();
        }
    }

    /** The front end left the run of {@code key}: released before its delete, finished past it. */
    public void leave(String key) {
        R r = runs.remove(key);
        if (r != null) {
            machine.apply(r).leave();
        }
    }

    /**
     * The front end closes (quit, a signal): every run still open is left; a copy under way is not finished on the way
     * out (every ordinal, minutes each) but stopped at its next safe point, its StatefulSet re-applied over the pod's own
     * claims where none was deleted yet. Each run that had begun to write says where it stands ({@link #leftAtClose}).
     */
    public void close(StopRequest stop) {
        for (String key : List.copyOf(runs.keySet())) {
            R r = runs.remove(key);
            if (r == null) {
                continue;
            }
            Convergence m = machine.apply(r);
            if (copyUnderWay(m)) {
                stop.request("the UI closed");
            }
            boolean wroteSomething = m.position() != Phase.LOCK || m.finished() != null;
            m.leave();
            if (wroteSomething) {
                leftAtClose.add(key + ": " + whereItStands(key, m.finished()));
            }
        }
    }

    /** For each run closed after it began to write: where it stands, one line each, for the terminal the front end leaves. */
    public List<String> leftAtClose() {
        return List.copyOf(leftAtClose);
    }

    /** The StatefulSets whose run is past the delete gate and not finished: what closing finishes first. */
    public List<String> finishing() {
        return keys(m -> m.pastTheDelete() && !copies(m));
    }

    /** The StatefulSets whose copy is under way: what closing stops at its next safe point. */
    public List<String> copying() {
        return keys(OpenRuns::copyUnderWay);
    }

    private List<String> keys(Predicate<Convergence> which) {
        List<String> out = new ArrayList<>();
        runs.forEach((key, r) -> {
            if (which.test(machine.apply(r))) {
                out.add(key);
            }
        });
        return out;
    }

    private static boolean copies(Convergence m) {
        return m.decision() != null && m.decision().verdict() == Verdict.COPY;
    }

    private static boolean copyUnderWay(Convergence m) {
        return copies(m) && m.finished() == null && m.position() != Phase.LOCK;
    }

    private static String whereItStands(String key, Convergence.Turn end) {
        if (end instanceof Convergence.Turn.Stopped st) {
            String sentence = st.result().sentence();
            return sentence + (st.resumeCommand().isEmpty() || sentence.contains(st.resumeCommand()) ? "" : "; finish with: " + st.resumeCommand());
        }
        if (end != null && end.result() != null) {
            return end.result().sentence();
        }
        return "left midway, its record kept; finish with: kubectl stsresize resume " + key;
    }
}
