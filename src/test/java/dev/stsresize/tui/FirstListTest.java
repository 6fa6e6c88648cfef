package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.tui.source.ClusterDecisions;
import dev.stsresize.tui.terminal.EffectRunner;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UI's first list against the simulated cluster, as the EffectRunner loads it: drawn from the
 * LISTs alone, the server's proofs (rules reviews, dry runs) asked after it and filled in.
 */
class FirstListTest {
    @TempDir Path home;
    private DemoOnSim demo;
    private SimCluster sim;
    private ClusterDecisions source;
    private EffectRunner runner;
    /** Each event the runner posted, with how many requests the server had seen when it was posted. */
    private final BlockingQueue<Posted> posted = new LinkedBlockingQueue<>();

    record Posted(UiEvent event, int requests) {}

    @BeforeEach
    void start() throws Exception {
        demo = DemoOnSim.start(home);
        sim = demo.sim;
        source = demo.source;
        runner = new EffectRunner(source, StepRunner.OFFLINE, e -> posted.add(new Posted(e, sim.requests().size())));
    }

    @AfterEach
    void stop() {
        runner.close();
        demo.close();
    }

    private Posted next() throws InterruptedException {
        Posted p = posted.poll(30, TimeUnit.SECONDS);
        assertThat(p).as("an event was posted").isNotNull();
        return p;
    }

    /** Reviews are POSTs, dry runs writes with dryRun: none of them may come before the list is drawn. */
    private static List<String> notLists(List<RecordedRequest> sent) {
        return sent.stream().filter(r -> r.isWrite() || !r.method().equals("GET")).map(r -> r.method() + " " + r.path()).toList();
    }

    @Test
    void theFirstListIsDrawnFromTheListsAloneAndTheProofsFillItIn() throws Exception {
        int from = sim.requests().size();
        runner.run(new Effect.LoadDecisions());
        Posted first = next();
        assertThat(first.event()).isInstanceOf(UiEvent.DecisionsLoaded.class);
        List<RecordedRequest> beforeFirst = List.copyOf(sim.requests().subList(from, first.requests()));
        assertThat(notLists(beforeFirst)).as("requests before the first list: the LISTs only, no review nor dry run").isEmpty();
        assertThat(beforeFirst).extracting(RecordedRequest::verb).contains("list");

        Loaded listed = ((UiEvent.DecisionsLoaded) first.event()).loaded();
        assertThat(listed.decisions()).hasSize(9);
        // every row with work is marked as waiting for its proofs, and only those
        assertThat(listed.unproved()).isNotEmpty().allSatisfy(k -> assertThat(listed.decisions().stream()
                .filter(d -> Loaded.key(d).equals(k)).findFirst().orElseThrow().verdict().hasWork()).isTrue());
        Transition drawn = Update.apply(UiState.initial(120, 30), first.event());
        assertThat(drawn.state().visible()).hasSize(9);
        assertThat(drawn.effects()).contains(new Effect.ProveDecisions());
        assertThat(VirtualScreen.draw(drawn.state(), new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text())
                .contains("checking…");

        drawn.effects().stream().filter(e -> e instanceof Effect.ProveDecisions).forEach(runner::run);
        Posted proved = next();
        assertThat(proved.event()).isInstanceOf(UiEvent.DecisionsProved.class);
        List<RecordedRequest> proofs = List.copyOf(sim.requests().subList(first.requests(), proved.requests()));
        assertThat(proofs).extracting(RecordedRequest::path).anyMatch(p -> p.contains("selfsubjectrulesreviews"));
        assertThat(proofs).filteredOn(RecordedRequest::isWrite).allSatisfy(r -> assertThat(r.dryRun() || r.path().contains("reviews"))
                .as(r.method() + " " + r.path() + " is a review or a dry run").isTrue());
        Loaded all = ((UiEvent.DecisionsProved) proved.event()).loaded();
        assertThat(all.unproved()).isEmpty();
        UiState filled = Update.apply(drawn.state(), proved.event()).state();
        assertThat(filled.loading()).isFalse();
        assertThat(VirtualScreen.draw(filled, new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text()).doesNotContain("checking");
        // the same decisions as the whole load that plan and the wizard's tests make
        assertThat(all.decisions()).isEqualTo(source.load().decisions());
    }
}
