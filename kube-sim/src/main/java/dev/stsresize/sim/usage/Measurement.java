package dev.stsresize.sim.usage;

import java.time.Instant;

/**
 * One file system's figures at one moment, as the kubelet's FsStats carries them. They are statfs's, as
 * pkg/volume/util/fs (fs_unix.go Info) turns them into bytes: capacity {@code f_blocks × f_bsize}, used
 * {@code (f_blocks − f_bfree) × f_bsize}, available {@code f_bavail × f_bsize}. The blocks the file system
 * reserves for root ({@code f_bfree − f_bavail}) are in neither used nor available.
 */
public record Measurement(Instant time, long usedBytes, long capacityBytes, long reservedBytes, double bytesPerSecond) {
    /** What an unprivileged writer can still write: capacity − used − reserved, never below 0. */
    public long availableBytes() {
        return Math.max(0, capacityBytes - usedBytes - reservedBytes);
    }
}
