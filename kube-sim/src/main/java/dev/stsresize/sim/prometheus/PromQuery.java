package dev.stsresize.sim.prometheus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The PromQL this simulator understands, and nothing more: an instant vector selector
 * ({@code metric{label="v", label=~"re", label!="v", label!~"re"}}) or {@code deriv(selector[DURATION])}.
 * Label values are PromQL strings (double or single quotes, Go escapes); regular expressions are
 * anchored as Prometheus anchors them ({@code ^(?:re)$}, model/labels/regexp.go); durations are
 * Prometheus' ({@code 1h30m}, units ms s m h d w y; model.ParseDuration). Anything else is refused with
 * {@link Unsupported}, which the API answers as {@code bad_data}.
 */
public record PromQuery(String function, String metric, List<Matcher> matchers, Duration range) {

    /** A label matcher: {@code =}, {@code !=}, {@code =~} or {@code !~}. */
    public record Matcher(String label, String op, String value, Pattern regex) {
        boolean matches(Map<String, String> labels) {
            String v = labels.getOrDefault(label, "");
            return switch (op) {
                case "=" -> v.equals(value);
                case "!=" -> !v.equals(value);
                case "=~" -> regex.matcher(v).matches();
                default -> !regex.matcher(v).matches();
            };
        }
    }

    /** A query outside the served subset, or not PromQL at all; the message says which and where. */
    public static final class Unsupported extends RuntimeException {
        Unsupported(String message) {
            super(message);
        }
    }

    public boolean isDeriv() {
        return "deriv".equals(function);
    }

    boolean matches(Map<String, String> labels) {
        if (!metric.equals(labels.get("__name__"))) {
            return false;
        }
        for (Matcher m : matchers) {
            if (!m.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    public static PromQuery parse(String text) {
        return new Parser(text == null ? "" : text).query();
    }

    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        PromQuery query() {
            skip();
            if (i >= s.length()) {
                throw new Unsupported("1:1: parse error: no expression found in input");
            }
            String name = identifier();
            skip();
            PromQuery q;
            if (name.equals("deriv") && peek('(')) {
                i++;
                skip();
                String metric = identifier();
                List<Matcher> ms = matchers();
                skip();
                expect('[');
                Duration range = duration();
                expect(']');
                skip();
                expect(')');
                q = new PromQuery("deriv", metric, ms, range);
            } else if (peek('(')) {
                throw unsupported("function " + name + "() is not served; only deriv(metric{…}[range])");
            } else {
                q = new PromQuery("", name, matchers(), null);
            }
            skip();
            if (i < s.length()) {
                throw unsupported("unexpected \"" + s.substring(i) + "\"; only a selector or deriv(selector[range]) is served");
            }
            return q;
        }

        private List<Matcher> matchers() {
            skip();
            List<Matcher> out = new ArrayList<>();
            if (!peek('{')) {
                return out;
            }
            i++;
            while (true) {
                skip();
                if (peek('}')) {
                    i++;
                    return out;
                }
                String label = identifier();
                skip();
                String op;
                if (s.startsWith("=~", i) || s.startsWith("!=", i) || s.startsWith("!~", i)) {
                    op = s.substring(i, i + 2);
                    i += 2;
                } else if (peek('=')) {
                    op = "=";
                    i++;
                } else {
                    throw unsupported("expected a label matching operator (=, !=, =~, !~) after " + label);
                }
                skip();
                String value = string();
                Pattern regex = null;
                if (op.endsWith("~")) {
                    try {
                        regex = Pattern.compile("^(?:" + value + ")$");
                    } catch (PatternSyntaxException e) {
                        throw unsupported("error parsing regexp: " + e.getDescription() + ": `" + value + "`");
                    }
                }
                out.add(new Matcher(label, op, value, regex));
                skip();
                if (peek(',')) {
                    i++;
                } else if (!peek('}')) {
                    throw unsupported("expected \",\" or \"}\" in label matching");
                }
            }
        }

        private String identifier() {
            int start = i;
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) && s.charAt(i) < 128 || s.charAt(i) == '_' || s.charAt(i) == ':')) {
                i++;
            }
            if (start == i || Character.isDigit(s.charAt(start))) {
                throw unsupported("expected a metric or label name");
            }
            return s.substring(start, i);
        }

        /** A PromQL string literal: "…" or '…' with Go's escapes (\\, \", \', \n, \t). */
        private String string() {
            if (!peek('"') && !peek('\'')) {
                throw unsupported("expected a quoted label value");
            }
            char quote = s.charAt(i++);
            StringBuilder b = new StringBuilder();
            while (i < s.length() && s.charAt(i) != quote) {
                char c = s.charAt(i++);
                if (c == '\\' && i < s.length()) {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case '\\', '"', '\'' -> b.append(e);
                        default -> throw unsupported("unknown escape sequence \\" + e);
                    }
                } else {
                    b.append(c);
                }
            }
            if (i >= s.length()) {
                throw unsupported("unterminated quoted string");
            }
            i++;
            return b.toString();
        }

        /** model.ParseDuration: one or more NUMBER UNIT, units from largest to smallest, ms s m h d w y. */
        private Duration duration() {
            int start = i;
            while (i < s.length() && s.charAt(i) != ']') {
                i++;
            }
            String text = s.substring(start, i).trim();
            var m = Pattern.compile("(\\d+)(ms|y|w|d|h|m|s)").matcher(text);
            Duration d = Duration.ZERO;
            int at = 0;
            while (m.find() && m.start() == at) {
                long n = Long.parseLong(m.group(1));
                d = d.plus(switch (m.group(2)) {
                    case "y" -> Duration.ofDays(365 * n);
                    case "w" -> Duration.ofDays(7 * n);
                    case "d" -> Duration.ofDays(n);
                    case "h" -> Duration.ofHours(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "s" -> Duration.ofSeconds(n);
                    default -> Duration.ofMillis(n);
                });
                at = m.end();
            }
            if (text.isEmpty() || at != text.length() || d.isZero()) {
                throw unsupported("bad duration syntax: \"" + text + "\"");
            }
            return d;
        }

        private void expect(char c) {
            skip();
            if (!peek(c)) {
                throw unsupported("expected \"" + c + "\"");
            }
            i++;
        }

        private boolean peek(char c) {
            return i < s.length() && s.charAt(i) == c;
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        /** Prometheus' parse errors start with LINE:COLUMN; so do these (one line: column i+1). */
        private Unsupported unsupported(String what) {
            return new Unsupported("1:" + (i + 1) + ": parse error: " + what);
        }
    }
}
