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
 * that leaves at least the policy's headroom free on the fullest claim, and that lasts the policy's days at
 * that claim's measured rate; capped by what the namespace's storage quota still allows.
 *
 * <p>Nothing is suggested when every claim already has the room (a claim grown ahead of its template
 * counts by its own capacity), nor when the size would not be above the template's: set-size never shrinks.
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
        templates.forEach((template, quantity) -> {
            List<ClaimUsage> own = claims.stream()
                    .filter(c -> ClaimNames.ordinalOf(c.claim(), template, name).isPresent()).toList();
            suggest(template, quantity, own, policy, quotaRemainingBytes).ifPresent(suggestions::add);
        });
        return new StatefulSetUsage(namespace, name, claims, suggestions);
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
            long n = needBytes(c, policy);
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
        String why = why(worst, policy);
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

    /** The bytes a claim needs: the headroom on what it uses, or what it uses plus the policy's days of growth. */
    private static long needBytes(ClaimUsage c, SizingPolicy policy) {
        long bytes = forHeadroom(c, policy);
        Optional<Long> forDays = forDays(c, policy);
        return forDays.isPresent() && forDays.get() > bytes ? forDays.get() : bytes;
    }

    /** One line for the claim that decides: how full it is, and what {@link #needBytes} gave. */
    private static String why(ClaimUsage c, SizingPolicy policy) {
        long used = c.usedBytes();
        long forHeadroom = forHeadroom(c, policy);
        String usedText = c.claim() + " " + Math.round(c.usedPercent()) + " % used (" + Bytes.human(used) + " of "
                + Bytes.human(c.capacityBytes()) + ")";
        String why = usedText + "; " + policy.headroomPercent() + " % free needs " + Bytes.human(forHeadroom);
        if (policy.lasts().isPresent()) {
            Duration lasts = policy.lasts().get();
            Optional<Long> forDays = forDays(c, policy);
            if (forDays.isPresent()) {
                if (forDays.get() > forHeadroom) {
                    why = usedText + ", growing " + Bytes.human((long) (c.bytesPerSecond().get() * 86_400)) + "/day; "
                            + Durations.brief(lasts) + " needs " + Bytes.human(forDays.get());
                }
            } else {
                why += " (no growth rate measured for " + Durations.brief(lasts) + ")";
            }
        }
        return why;
    }

    private static long forHeadroom(ClaimUsage c, SizingPolicy policy) {
        double freeShare = (100 - policy.headroomPercent()) / 100.0;
        return (long) Math.ceil(c.usedBytes() / freeShare);
    }

    /** What the claim uses plus its rate over the policy's days; empty without days or without a rate. */
    private static Optional<Long> forDays(ClaimUsage c, SizingPolicy policy) {
        if (policy.lasts().isEmpty()) {
            return Optional.empty();
        }
        return c.bytesPerSecond().map(rate -> c.usedBytes() + (long) Math.ceil(rate * policy.lasts().get().toSeconds()));
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
        return new BigDecimal(bytes).divide(new BigDecimal(unit), 0, RoundingMode.CEILING).longValueExact();
    }
}
