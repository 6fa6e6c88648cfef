package dev.stsresize.plan;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The suggested size of a volume claim template: the smallest whole number of the template's own unit
 * ({@code Gi} for {@code 10Gi}, {@code G} for {@code 20G}; {@code Gi} for a plain byte count or an exponent)
 * that leaves at least the policy's headroom available on the fullest claim, and that lasts the policy's days at
 * that claim's measured rate; capped by what the namespace's storage quota still allows.
 *
 * <p>"Available" is the alert's ({@link ClaimUsage#usedPercent}): the blocks a file system keeps back grow with it
 * (ext4 reserves a share of its blocks, and resize2fs keeps the share), so they are sized as that share of the new
 * size, not as bytes used; and a file system a little smaller than its claim (its own metadata) stays that much
 * smaller when grown. So after growing to the suggestion the alert's measure is at most 100 − headroom.
 *
 * <p>Nothing is suggested when every claim already has the room (a claim grown ahead of its template
 * counts by its own capacity), nor when the size would not be above the template's: set-size never shrinks;
 * nor from a claim on a shared file system ({@link ClaimUsage#sharedFileSystem}): its size changes nothing there.
 */
public final class Sizing {
    private static final Map<String, BigInteger> UNITS = Map.ofEntries(
            Map.entry("Ki", BigInteger.TWO.pow(10)), Map.entry("Mi", BigInteger.TWO.pow(20)),
            Map.entry("Gi", BigInteger.TWO.pow(30)), Map.entry("Ti", BigInteger.TWO.pow(40)),
            Map.entry("Pi", BigInteger.TWO.pow(50)), Map.entry("Ei", BigInteger.TWO.pow(60)),
            Map.entry("k", BigInteger.TEN.pow(3)), Map.entry("M", BigInteger.TEN.pow(6)),
            Map.entry("G", BigInteger.TEN.pow(9)), Map.entry("T", BigInteger.TEN.pow(12)),
            Map.entry("P", BigInteger.TEN.pow(15)), Map.entry("E", BigInteger.TEN.pow(18)));
    private static final String FALLBACK_UNIT = "Gi";
    /**
     * A file system whose capacity is within this factor below its claim's size is taken to be the claim's, less its
     * metadata (ext4's inode tables and journal take a few percent).
     */
    private static final double MAX_OVERHEAD = 1.1;

    private Sizing() {}

    /**
     * The usage of one StatefulSet with a suggestion for each of its templates that needs one; each claim
     * belongs to the template whose {@code <template>-<name>-<ordinal>} it is ({@link ClaimNames}).
     *
     * @param templates each volumeClaimTemplate's name and storage request as written, in template order
     */
    public static StatefulSetUsage statefulSet(String namespace, String name, Map<String, String> templates,
            List<ClaimUsage> claims, SizingPolicy policy, Optional<Long> quotaRemainingBytes) {
        List<SuggestedSize> suggestions = new java.util.ArrayList<>();
        Map<String, ClaimUsage> marked = new java.util.HashMap<>();
        templates.forEach((template, quantity) -> {
            long templateBytes = bytesOf(quantity);
            List<ClaimUsage> own = claims.stream()
                    .filter(c -> ClaimNames.ordinalOf(c.claim(), template, name).isPresent()).toList();
            own.forEach(c -> marked.put(c.claim(), c.measuredAgainst(templateBytes)));
            suggest(template, quantity, own, policy, quotaRemainingBytes).ifPresent(suggestions::add);
        });
        return new StatefulSetUsage(namespace, name, claims.stream().map(c -> marked.getOrDefault(c.claim(), c)).toList(), suggestions);
    }

    /**
     * @param template the volumeClaimTemplate's name
     * @param currentQuantity its storage request as written ({@code 10Gi})
     * @param claims the usage of its claims (those whose usage is known)
     * @param quotaRemainingBytes {@code requests.storage} hard − used of the namespace, when it could be read
     */
    public static Optional<SuggestedSize> suggest(String template, String currentQuantity, List<ClaimUsage> claims,
            SizingPolicy policy, Optional<Long> quotaRemainingBytes) {
        Quantity current = Quantity.parseOrNull(currentQuantity);
        if (current == null || current.value().signum() <= 0 || claims.isEmpty()) {
            return Optional.empty();
        }
        long currentBytes = current.value().setScale(0, RoundingMode.CEILING).longValueExact();
        ClaimUsage worst = null;
        long worstBytes = 0;
        for (ClaimUsage c : claims) {
            if (c.measuredAgainst(currentBytes).sharedFileSystem()) {
                continue;
            }
            long n = needBytes(c, currentBytes, policy);
            // a claim already bigger than what it needs (grown ahead, or big enough) asks for nothing
            if (n > Math.max(c.capacityBytes(), currentBytes) && (worst == null || n > worstBytes)) {
                worst = c;
                worstBytes = n;
            }
        }
        if (worst == null) {
            return Optional.empty();
        }
        String unit = unitOf(currentQuantity);
        BigInteger unitBytes = UNITS.get(unit);
        long units = ceilDiv(BigInteger.valueOf(worstBytes), unitBytes);
        long suggestedBytes = BigInteger.valueOf(units).multiply(unitBytes).longValueExact();
        if (suggestedBytes <= currentBytes) {
            return Optional.empty();
        }
        // the words only for the claim that decides (a StatefulSet of many claims sized them all before)
        String why = why(worst, currentBytes, policy);
        boolean capped = false;
        if (quotaRemainingBytes.isPresent()) {
            long remaining = Math.max(0, quotaRemainingBytes.get());
            long cappedUnits = units;
            while (cappedUnits > 0 && increase(claims, currentBytes, unitBytes.longValueExact() * cappedUnits) > remaining) {
                cappedUnits--;
            }
            if (cappedUnits < units) {
                capped = true;
                long cappedBytes = cappedUnits * unitBytes.longValueExact();
                if (cappedBytes > currentBytes) {
                    why += "; capped by the namespace's storage quota (" + Bytes.human(remaining) + " left)";
                    units = cappedUnits;
                } else {
                    why += "; the namespace's storage quota (" + Bytes.human(remaining)
                            + " left) cannot hold it: raise its requests.storage first";
                }
            }
        }
        return Optional.of(new SuggestedSize(template, currentQuantity, units + unit, why, capped));
    }

    /**
     * What growing every claim to {@code size} adds to the namespace's requests. A claim's request is not in its
     * usage: it is taken as the template's, or as its capacity when that is larger (a claim grown ahead).
     */
    private static long increase(List<ClaimUsage> claims, long currentBytes, long size) {
        long sum = 0;
        for (ClaimUsage c : claims) {
            long request = Math.max(c.capacityBytes(), currentBytes);
            sum += Math.max(0, size - request);
        }
        return sum;
    }

    /**
     * The claim size a claim needs: the headroom available on what it uses, or what it uses plus the policy's days of
     * growth, whichever is more; in the claim's bytes (its file system's overhead added back).
     */
    private static long needBytes(ClaimUsage c, long currentBytes, SizingPolicy policy) {
        long bytes = forHeadroom(c, policy);
        Optional<Long> forDays = forDays(c, policy);
        long fileSystem = forDays.isPresent() && forDays.get() > bytes ? forDays.get() : bytes;
        return claimBytesFor(fileSystem, c, currentBytes);
    }

    /** One line for the claim that decides: how full it is, and what {@link #needBytes} gave. */
    private static String why(ClaimUsage c, long currentBytes, SizingPolicy policy) {
        long forHeadroom = claimBytesFor(forHeadroom(c, policy), c, currentBytes);
        String usedText = c.claim() + " " + c.shownPercent() + " % used (" + Bytes.human(c.availableBytes()) + " of "
                + Bytes.human(c.capacityBytes()) + " available)";
        String why = usedText + "; " + policy.headroomPercent() + " % available needs " + Bytes.human(forHeadroom);
        if (policy.lasts().isPresent()) {
            Duration lasts = policy.lasts().get();
            Optional<Long> forDays = forDays(c, policy);
            if (forDays.isPresent()) {
                long forDaysClaim = claimBytesFor(forDays.get(), c, currentBytes);
                if (forDaysClaim > forHeadroom) {
                    why = usedText + ", growing " + Bytes.human((long) (c.bytesPerSecond().get() * 86_400)) + "/day; "
                            + Durations.brief(lasts) + " needs " + Bytes.human(forDaysClaim);
                }
            } else {
                why += " (no growth rate measured for " + Durations.brief(lasts) + ")";
            }
        }
        return why;
    }

    /**
     * The file system size whose available share is the headroom: {@code used ÷ (1 − reserved share − headroom)},
     * computed exactly (a volume at the headroom's edge asks for nothing). The reserved share is what the file
     * system keeps back now, as a share of its capacity.
     */
    private static long forHeadroom(ClaimUsage c, SizingPolicy policy) {
        if (c.usedBytes() == 0 || c.capacityBytes() == 0) {
            return 0;
        }
        long reserved = reservedForSizing(c, policy);
        BigInteger capacity = BigInteger.valueOf(c.capacityBytes());
        // used × capacity × 100 ÷ (100 × (capacity − reserved) − headroom × capacity)
        BigInteger numerator = BigInteger.valueOf(c.usedBytes()).multiply(capacity).multiply(BigInteger.valueOf(100));
        BigInteger denominator = BigInteger.valueOf(100).multiply(capacity.subtract(BigInteger.valueOf(reserved)))
                .subtract(BigInteger.valueOf(policy.headroomPercent()).multiply(capacity));
        return clamp(ceilDiv(numerator, denominator));
    }

    /**
     * What the claim uses plus its rate over the policy's days, with the reserved share on top (writes stop at the
     * reserve, not at capacity); empty without days or without a rate.
     */
    private static Optional<Long> forDays(ClaimUsage c, SizingPolicy policy) {
        if (policy.lasts().isEmpty()) {
            return Optional.empty();
        }
        return c.bytesPerSecond().map(rate -> {
            long writable = c.usedBytes() + (long) Math.ceil(rate * policy.lasts().get().toSeconds());
            if (c.capacityBytes() == 0) {
                return writable;
            }
            BigInteger capacity = BigInteger.valueOf(c.capacityBytes());
            // writable × capacity ÷ (capacity − reserved)
            return clamp(ceilDiv(BigInteger.valueOf(writable).multiply(capacity),
                    capacity.subtract(BigInteger.valueOf(reservedForSizing(c, policy)))));
        });
    }

    /**
     * The reserved bytes sizing counts: as reported, unless so large a share (untrusted figures) that no size could
     * leave the headroom available; then none, and the headroom is taken on used alone.
     */
    private static long reservedForSizing(ClaimUsage c, SizingPolicy policy) {
        long reserved = c.reservedBytes();
        double share = (double) reserved / c.capacityBytes();
        return share * 100 > (100 - policy.headroomPercent()) / 2.0 ? 0 : reserved;
    }

    /**
     * The claim size that gives a file system of {@code fileSystemBytes}: a file system somewhat below its claim's
     * size (its own metadata, a few percent) stays that much below when grown; one below by more is not grown yet
     * (a resize pending) and one above is the claim's grown-ahead size, and neither says anything of overhead.
     */
    private static long claimBytesFor(long fileSystemBytes, ClaimUsage c, long currentBytes) {
        long capacity = c.capacityBytes();
        if (capacity <= 0 || capacity >= currentBytes || capacity * MAX_OVERHEAD < currentBytes) {
            return fileSystemBytes;
        }
        return clamp(ceilDiv(BigInteger.valueOf(fileSystemBytes).multiply(BigInteger.valueOf(currentBytes)),
                BigInteger.valueOf(capacity)));
    }

    private static long bytesOf(String quantity) {
        Quantity q = Quantity.parseOrNull(quantity);
        return q == null || q.value().signum() <= 0 ? 0 : q.value().setScale(0, RoundingMode.CEILING).min(BigDecimal.valueOf(Long.MAX_VALUE))
                .longValue();
    }

    private static long clamp(long v) {
        return Math.max(0, v);
    }

    /** The suffix of a quantity as written: {@code Gi} of {@code 10Gi}; the fallback for bytes, exponents and milli. */
    static String unitOf(String quantity) {
        int i = quantity.length();
        while (i > 0 && Character.isLetter(quantity.charAt(i - 1))) {
            i--;
        }
        String suffix = quantity.substring(i);
        return UNITS.containsKey(suffix) && !quantity.matches(".*[eE][+-]?[0-9]+") ? suffix : FALLBACK_UNIT;
    }

    private static long ceilDiv(BigInteger bytes, BigInteger unit) {
        BigDecimal q = new BigDecimal(bytes).divide(new BigDecimal(unit), 0, RoundingMode.CEILING);
        return q.min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue();
    }
}
