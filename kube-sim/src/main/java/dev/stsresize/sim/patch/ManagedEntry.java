package dev.stsresize.sim.patch;

/**
 * One metadata.managedFields entry: who ({@link #id}), with which apiVersion, when, and the fields
 * it owns. {@code subresource} is "" for the main resource.
 */
record ManagedEntry(Id id, String apiVersion, String time, FieldSet fields) {
    static final String APPLY = "Apply";
    static final String UPDATE = "Update";

    /** Ownership identity: the same manager applying and updating holds two entries. */
    record Id(String manager, String operation, String subresource) {
        /**
         * The manager as conflict messages print it (internal/conflict.go printManager). The
         * identifier the server compares never carries a time, so no "at <time>" appears.
         */
        String printed(String apiVersion) {
            String s = quote(manager);
            if (!subresource.isEmpty()) {
                s += " with subresource " + quote(subresource);
            }
            return operation.equals(UPDATE) ? s + " using " + apiVersion : s;
        }

        /** BuildManagerIdentifier's JSON, the order conflict messages sort managers by. */
        String identifier(String apiVersion) {
            StringBuilder b = new StringBuilder("{\"manager\":").append(quote(manager))
                    .append(",\"operation\":").append(quote(operation));
            if (operation.equals(UPDATE)) {
                b.append(",\"apiVersion\":").append(quote(apiVersion));
            }
            if (!subresource.isEmpty()) {
                b.append(",\"subresource\":").append(quote(subresource));
            }
            return b.append('}').toString();
        }

        private static String quote(String s) {
            return PatchTrees.NODES.textNode(s).toString();
        }
    }

    ManagedEntry withFields(FieldSet newFields) {
        return new ManagedEntry(id, apiVersion, time, newFields);
    }
}
