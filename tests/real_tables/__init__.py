"""A corpus of real tables (from pinned pip packages) with hand-written expectations."""
