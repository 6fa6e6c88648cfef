package dev.stsresize.sim;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A test class whose every test starts a simulated cluster of its own, with an admin client, and closes it after. */
abstract class FreshSim {
    SimCluster sim;
    SimClient admin;

    @BeforeEach
    void startSim() {
        sim = SimCluster.start(options());
        admin = SimClient.admin(sim);
    }

    /** The cluster's options: the defaults, unless the test class is about one. */
    SimOptions options() {
        return SimOptions.defaults();
    }

    @AfterEach
    void stopSim() {
        sim.close();
    }
}
