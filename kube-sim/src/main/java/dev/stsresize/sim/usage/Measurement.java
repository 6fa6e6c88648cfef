package dev.stsresize.sim.usage;

import java.time.Instant;

/** One claim's filesystem figures at one moment, as the kubelet's FsStats carries them. */
public record Measurement(Instant time, long usedBytes, long capacityBytes, double bytesPerSecond) {
    public long availableBytes() {
        return capacityBytes - usedBytes;
    }
}
